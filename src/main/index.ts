// The Electron main process entry: everything that touches Electron lives in ./electron.
import { runApp } from './electron/app'

runApp()
