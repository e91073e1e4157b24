import type { CheckContext } from '../core/types.js';
import { quoteAnglePlaceholders } from '../parsers/angle-placeholders.js';
import { readLaunchScript, type ServeCommand, type ShellVariable } from '../parsers/launch-script.js';
import { parseServeArgs } from '../parsers/vllm-args.js';
import { describeInvocation, invocationViews, parallelism, type LaunchView } from './launch.js';
import { parseDeviceList } from './npu.js';

/**
 * The vLLM servers this node would run at once, from everything given with --launch: the judged
 * script's server, the same template once per invocation with other arguments, the servers of
 * the other scripts given, and a server a script starts in the background before another one.
 * Each with the NPUs it takes (ASCEND_RT_VISIBLE_DEVICES, else the runtime's first devices) and
 * the HCCL port setting it starts with.
 */

export interface ServerInstance {
  /** "run_p.sh:32", "launch.sh:3 (bash run_dp_template.sh 0,1 9000 ...)" */
  label: string;
  /** the logical NPU ids it takes; null when the script computes them at run time */
  devices: number[] | null;
  /** HCCL_NPU_SOCKET_PORT_RANGE as set for it, undefined when not set, null when computed */
  npuPortRange: string | null | undefined;
}

function devicesOf(server: ServeCommand, env: ReadonlyMap<string, ShellVariable>): number[] | null {
  const visible = env.get('ASCEND_RT_VISIBLE_DEVICES')?.value;
  if (visible && !visible.known) return null;
  if (visible?.known) return parseDeviceList(visible.text.trim()) ?? null;
  const layout = parallelism(parseServeArgs(server.args));
  if (layout.unknowns.length > 0 || layout.problems.length > 0) return null;
  // without ASCEND_RT_VISIBLE_DEVICES the runtime hands out the first devices
  return Array.from({ length: Math.max(1, layout.perNode) }, (_, i) => i);
}

function instanceOf(label: string, server: ServeCommand): ServerInstance {
  const range = server.env.get('HCCL_NPU_SOCKET_PORT_RANGE')?.value;
  return { label, devices: devicesOf(server, server.env), npuPortRange: range === undefined ? undefined : range.known ? range.text.trim() : null };
}

/** The servers a script starts at once: each one started in the background, and the one after them. */
function concurrentServers(serve: ServeCommand, others: readonly ServeCommand[]): ServeCommand[] {
  const all = [serve, ...others];
  const running: ServeCommand[] = [];
  for (const server of all) {
    running.push(server);
    // a server in the foreground holds the script until it exits: what follows does not run beside it
    if (!server.background) break;
  }
  return running;
}

export function serverInstances(ctx: CheckContext, view: LaunchView): Promise<ServerInstance[]> {
  return ctx.shared('launch:server-instances', async () => {
    const instances: ServerInstance[] = [];
    for (const each of await invocationViews(ctx, view)) {
      if (!each.serve) continue;
      const call = each.arguments?.used;
      const label = call && each !== view ? describeInvocation(call) : `${view.name}:${each.serve.line}`;
      instances.push(instanceOf(label, each.serve));
    }
    for (const other of view.script.serve ? concurrentServers(view.script.serve, view.script.otherServers).slice(1) : []) {
      instances.push(instanceOf(`${view.name}:${other.line}`, other));
    }
    const inherited = ctx.host.env();
    for (const input of view.input.launchers ?? []) {
      const script = readLaunchScript(quoteAnglePlaceholders(input.text).text, inherited);
      if (!script.serve) continue;
      const name = input.file === '-' ? 'stdin' : input.file.replace(/^.*\//, '');
      for (const server of concurrentServers(script.serve, script.otherServers)) instances.push(instanceOf(`${name}:${server.line}`, server));
    }
    return instances;
  });
}
