import { describe, expect, it } from 'vitest'
import { fillDeep, fillString, placeholderValues } from './placeholders'
import { MessagesRequestSchema } from './request'

const request = MessagesRequestSchema.parse({
  model: 'claude-sonnet-5',
  max_tokens: 100,
  messages: [
    { role: 'user', content: '<teammate-message teammate_id="bob" request_id="req-old">hi</teammate-message>' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 't1', name: 'Agent', input: {} },
        { type: 'tool_use', id: 't2', name: 'TaskCreate', input: {} }
      ]
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Explored.\nagentId: agent-7f3' }] },
        { type: 'tool_result', tool_use_id: 't2', content: 'Task #12 created successfully' },
        {
          type: 'text',
          text: '<teammate-message teammate_id="amy" request_id="req-42" type="shutdown_request">stop</teammate-message><teammate-message teammate_id="amy">bye</teammate-message>'
        }
      ]
    }
  ]
})

describe('placeholders', () => {
  it('reads every value from the newest place in the request', () => {
    expect(placeholderValues(request, { name: 'alice', id: 'a-1', cwd: '/w' })).toEqual({
      cwd: '/w',
      agent_name: 'alice',
      agent_id: 'a-1',
      last_tool_result: 'Task #12 created successfully',
      last_agent_id: 'agent-7f3',
      request_id: 'req-42',
      task_id: '12'
    })
  })

  it('finds agentId written as JSON and is empty where the request has nothing', () => {
    const json = MessagesRequestSchema.parse({
      model: 'm',
      max_tokens: 1,
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'x', content: '{"status":"async_launched","agentId":"ag-9"}' }]
        }
      ]
    })
    expect(placeholderValues(json, {})).toMatchObject({ last_agent_id: 'ag-9', request_id: '', task_id: '', cwd: '' })
  })

  it('fills strings deep inside tool input and leaves unknown placeholders as written', () => {
    const values = placeholderValues(request, { name: 'alice', id: 'a-1', cwd: '/w' })
    expect(fillString('{{cwd}}/src by {{ agent_name }} {{nope}}', values)).toBe('/w/src by alice {{nope}}')
    expect(
      fillDeep({ path: '{{cwd}}/a', list: ['{{task_id}}', 3, { deep: '#{{request_id}}' }], n: null }, values)
    ).toEqual({
      path: '/w/a',
      list: ['12', 3, { deep: '#req-42' }],
      n: null
    })
  })
})
