/** The one table of tools every host exposes. */
import { actTool } from './act.js';
import { appsTool } from './apps.js';
import { findTool } from './find.js';
import { keysTool } from './keys.js';
import { launchTool } from './launch.js';
import { inputTool } from './input.js';
import { observeTool } from './observe.js';
import { screenshotTool } from './screenshot.js';
import type { Tool } from './tool.js';
import { waitTool } from './wait.js';

export const TOOLS: readonly Tool[] = [
  appsTool,
  launchTool,
  observeTool,
  findTool,
  actTool,
  waitTool,
  keysTool,
  screenshotTool,
  inputTool,
] as unknown as Tool[];

/** Looks a tool up by name. */
export function toolByName(name: string): Tool | undefined {
  return TOOLS.find((t) => t.schema.name === name);
}
