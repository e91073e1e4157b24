import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { hccnNetHealth } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

export default defineCheck({
  id: 'hccn.net-health',
  title: 'NPU network health',
  category: 'hccn',
  level: 'required',
  why:
    'The driver probes each NPU port towards its netdetect address and reports "net health status: Success" when the ' +
    'path answers; Fault, Receive timeout, Unreachable and the like mean the RoCE plane of that device is broken. The ' +
    'vllm-ascend guides require Success. Init means the probe never ran (no netdetect address): it says nothing about ' +
    'the data plane, so it is a warning, not a failure (Ascend\'s own exporter counts it as healthy).',
  reads: ['hccn_tool -i <device> -net_health -g'],
  fix: 'For Fault or timeouts check the link, the device IP and the netdetect address (it must answer ping); for Init set a netdetect address: hccn_tool -i N -netdetect -s address <gateway>.',
  prefetch: prefetchEvery(() => [hccnNetHealth]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the NPU network health');
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnNetHealth);
    const failed = await unanswered(ctx, answers, 'the network health');
    if (failed) return failed;
    const states = answers.map(({ device, answer }) => {
      const entry = answer.ok ? answer.value.entries[0] : undefined;
      return { device: device.device, state: entry?.state ?? 'other', text: entry?.text ?? 'no answer' };
    });
    const evidence = { states };
    const bad = states.filter((s) => s.state !== 'success' && s.state !== 'init');
    const init = states.filter((s) => s.state === 'init');
    if (bad.length > 0) {
      const first = bad[0]!.device;
      return hccnProblem(ctx, `${bad.length} of ${states.length} NPU ports not healthy: ${summarizeList(bad.map((s) => `${devName(s.device)} ${s.text}`), 8)}`, {
        expected: 'net health status: Success',
        actual: bad.map((s) => `${devName(s.device)}: ${s.text}`).join(', '),
        remediation: `check device ${first}: its link (hccn_tool -i ${first} -link -g), its address (hccn_tool -i ${first} -ip -g) and that its netdetect address answers (hccn_tool -i ${first} -netdetect -g, then ping it from the switch side)`,
        evidence,
      });
    }
    if (init.length > 0) {
      const first = init[0]!.device;
      return warn(`${init.length} of ${states.length} NPU ports report Init (health probing not running: no netdetect address?): ${summarizeList(init.map((s) => devName(s.device)), 8)}`, {
        expected: 'net health status: Success',
        actual: init.map((s) => `${devName(s.device)}: ${s.text}`).join(', '),
        remediation: `set a netdetect address the port can reach, usually its gateway: hccn_tool -i ${first} -netdetect -s address <gateway of device ${first}>`,
        evidence,
      });
    }
    return pass(`all ${states.length} NPU ports report Success`, { evidence });
  },
});
