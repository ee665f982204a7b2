/**
 * Tool definitions in a provider's wire shape, rendered once: one wire object per definition, and
 * one wire list per visible list (a phase's, or a case's top-k). Every trial that shows the same
 * list sends — and hashes — the same objects, so the store key's canonical writer recognises them
 * by identity instead of serialising them again. Wire objects are never mutated once made.
 */
import type { ToolControls, ToolDefinition, TrialRequest } from "../types.js";

/**
 * The run's tool controls with the case's own parallel_tool_calls over them (a case that requires
 * one call per reply sets it false); the run's Anthropic disable_parallel_tool_use gives way to it.
 */
export function controlsFor(
  request: TrialRequest,
  controls: ToolControls | undefined,
): ToolControls | undefined {
  if (request.parallel_tool_calls === undefined && request.tool_choice === undefined)
    return controls;
  const parallel = request.parallel_tool_calls;
  return {
    tool_choice: request.tool_choice ?? controls?.tool_choice ?? null,
    strict: controls?.strict ?? false,
    parallel_tool_calls: parallel ?? controls?.parallel_tool_calls ?? null,
    disable_parallel_tool_use:
      parallel === undefined ? (controls?.disable_parallel_tool_use ?? null) : null,
  };
}

export function createToolRenderer<T>(
  render: (tool: ToolDefinition) => T,
): (tools: readonly ToolDefinition[]) => T[] {
  const items = new WeakMap<ToolDefinition, T>();
  const lists = new WeakMap<readonly ToolDefinition[], T[]>();
  const one = (tool: ToolDefinition): T => {
    let rendered = items.get(tool);
    if (rendered === undefined) items.set(tool, (rendered = render(tool)));
    return rendered;
  };
  return (tools) => {
    let list = lists.get(tools);
    if (list === undefined) lists.set(tools, (list = tools.map(one)));
    return list;
  };
}
