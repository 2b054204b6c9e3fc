import type { AgentView } from '../../../shared/ipc'
import { isTeammate } from './teammates'
import { LEADER_AGENT_ID } from './workspaceSlice'

/**
 * The pane grid's tree (docs/ui.md#the-workspace-ui: "subagents and forks appear as panes too, collapsible under
 * their parent"), derived from each agent's `parentId`. Teammates are top-level tiles whatever
 * their `parentId` says ("teammates tiled": a flat roster beside the leader, docs/teams.md#spawning-a-teammate, docs/ui.md#the-workspace-ui),
 * while their own subagents nest under them. Pure functions of the workspace and the person's
 * collapse choices, so nothing here is stored.
 */

/** Deepest nesting walked; the runtime caps subagent depth at 5 (docs/agents.md#agent-definitions), so this only guards against a cycle. */
const MAX_NEST = 32

/**
 * The parent an agent's pane nests under: its `parentId` when that agent is known, else none (a
 * root). A teammate is always a root: it is the leader's peer on screen, not its subagent.
 */
function parentOf(agent: AgentView | undefined, agents: Record<string, AgentView>): string | undefined {
  if (isTeammate(agent)) return undefined
  const p = agent?.parentId
  return p !== undefined && p !== agent?.agentId && agents[p] ? p : undefined
}

/** The agent whose pane an agent's pane is nested (indented) under, if any; undefined for a top-level tile. */
export function paneParentId(agentId: string, agents: Record<string, AgentView>): string | undefined {
  return parentOf(agents[agentId], agents)
}

/** Direct children of each agent, in the order the agents appeared. */
export function childrenByParent(order: readonly string[], agents: Record<string, AgentView>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const id of order) {
    const parent = parentOf(agents[id], agents)
    if (parent === undefined) continue
    const list = out.get(parent)
    if (list) list.push(id)
    else out.set(parent, [id])
  }
  return out
}

/**
 * The agents whose panes are tiled beside the leader's, in tree order: each agent followed by its
 * subagents (depth first, in the order they appeared), skipping the subtrees of collapsed agents.
 * The leader's own subagents come first, then every other root (a teammate, or an agent whose
 * parent is unknown) with its subtree, in the order they appeared.
 */
export function visibleTileIds(
  order: readonly string[],
  agents: Record<string, AgentView>,
  collapsed: Readonly<Record<string, true>>
): string[] {
  const children = childrenByParent(order, agents)
  const out: string[] = []
  const seen = new Set<string>()
  const walk = (id: string, nest: number): void => {
    if (collapsed[id] || nest > MAX_NEST) return
    for (const child of children.get(id) ?? []) {
      if (seen.has(child)) continue
      seen.add(child)
      out.push(child)
      walk(child, nest + 1)
    }
  }
  walk(LEADER_AGENT_ID, 0)
  for (const id of order) {
    if (id === LEADER_AGENT_ID || seen.has(id) || parentOf(agents[id], agents) !== undefined) continue
    seen.add(id)
    out.push(id)
    walk(id, 1)
  }
  return out
}

/**
 * How far a tile is indented: 0 for the leader's subagents and for other roots, one more per
 * ancestor between the agent and its root.
 */
export function nestLevel(agentId: string, agents: Record<string, AgentView>): number {
  // The leader's pane is not in the tile column, so its children start at 0; any other root's children at 1.
  let ancestors = 0
  let parent = parentOf(agents[agentId], agents)
  while (parent !== undefined && ancestors < MAX_NEST) {
    if (parent === LEADER_AGENT_ID) return ancestors
    ancestors++
    parent = parentOf(agents[parent], agents)
  }
  return ancestors
}

/** Number of agents below an agent in the tree (children, theirs, …): what collapsing it hides. */
export function descendantCount(agentId: string, order: readonly string[], agents: Record<string, AgentView>): number {
  const children = childrenByParent(order, agents)
  let count = 0
  const seen = new Set<string>([agentId])
  const stack = [...(children.get(agentId) ?? [])]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    count++
    stack.push(...(children.get(id) ?? []))
  }
  return count
}

/**
 * The tile column as groups: each top-level tile (a child of the leader, a teammate, or another
 * root) followed by its visible subtree, which moves with it when the person reorders tiles.
 * @param tiles the output of {@link visibleTileIds}
 */
export function tileGroups(tiles: readonly string[], agents: Record<string, AgentView>): string[][] {
  const groups: string[][] = []
  for (const id of tiles) {
    const parent = parentOf(agents[id], agents)
    if (parent === undefined || parent === LEADER_AGENT_ID || groups.length === 0) groups.push([id])
    else groups[groups.length - 1]!.push(id)
  }
  return groups
}

/**
 * The tiles of the grid in the order the person arranged them (docs/ui.md#the-workspace-ui "reorder"): groups (see
 * {@link tileGroups}) sorted by their head's place in `rootOrder`; heads not in it keep the order
 * they appeared in, after the arranged ones. Hidden panes are left out (their subagents stay).
 */
export function arrangedTileIds(
  order: readonly string[],
  agents: Record<string, AgentView>,
  collapsed: Readonly<Record<string, true>>,
  hidden: Readonly<Record<string, true>>,
  rootOrder: readonly string[]
): string[] {
  const groups = tileGroups(visibleTileIds(order, agents, collapsed), agents)
  const rank = new Map(rootOrder.map((id, i) => [id, i]))
  const ranked = groups.map((g, i) => ({ g, key: rank.get(g[0]!) ?? rootOrder.length + i }))
  ranked.sort((a, b) => a.key - b.key)
  return ranked.flatMap((r) => r.g).filter((id) => !hidden[id])
}
