import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { describeProbeError } from '../src/host/types.js';
import { formatBytes } from '../src/util/size.js';

const SHM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;

export default defineCheck({
  id: 'host.shm',
  title: 'Shared memory (/dev/shm)',
  category: 'host',
  level: 'required',
  why:
    'vLLM passes tensors between its API server, engine core and workers through /dev/shm. Docker gives a container ' +
    '64 MiB unless --shm-size says otherwise, and the engine core then dies with a core dump at start-up ' +
    '(vllm-ascend #3513); the guides start containers with --shm-size=1g or more.',
  reads: [`statfs(${SHM})`],
  fix: 'Start the container with --shm-size (e.g. --shm-size=16g); on a host, remount /dev/shm with a larger size.',
  async run(ctx) {
    const min = ctx.profile.host.shmMin;
    const usage = await ctx.host.statfs(SHM);
    const container = await ctx.container();
    const grow = container.inContainer
      ? `re-create the container with docker run --shm-size=${Math.max(16, Math.ceil(min / 1024 ** 3))}g`
      : `sudo mount -o remount,size=${Math.max(16, Math.ceil(min / 1024 ** 3))}G ${SHM}`;
    if (!usage.ok) {
      if (usage.code === 'ENOENT') {
        return fail(`${SHM} does not exist`, {
          expected: `tmpfs of at least ${formatBytes(min)}`,
          actual: 'missing',
          remediation: container.inContainer ? 'start the container with --shm-size=16g (Docker mounts /dev/shm then)' : `sudo mount -t tmpfs -o size=16G tmpfs ${SHM}`,
        });
      }
      return error(`cannot stat ${describeProbeError(SHM, usage)}`, { remediation: `make ${SHM} accessible and re-run` });
    }
    const { totalBytes, availableBytes, type } = usage.value;
    const evidence = { path: SHM, totalBytes, availableBytes, minBytes: min, tmpfs: type === TMPFS_MAGIC };
    if (totalBytes < min) {
      return fail(`${SHM} is ${formatBytes(totalBytes)}, expected at least ${formatBytes(min)}`, {
        expected: `>= ${formatBytes(min)}`,
        actual: formatBytes(totalBytes),
        remediation: grow,
        evidence,
      });
    }
    if (availableBytes < min) {
      return fail(`${SHM} has ${formatBytes(availableBytes)} free of ${formatBytes(totalBytes)}, expected at least ${formatBytes(min)} free: leftovers of a previous run?`, {
        expected: `>= ${formatBytes(min)} free`,
        actual: `${formatBytes(availableBytes)} free`,
        remediation: `look for stale segments with "ls -la ${SHM}" and remove those of processes that are gone, or ${grow}`,
        evidence,
      });
    }
    return pass(`${SHM} is ${formatBytes(totalBytes)} with ${formatBytes(availableBytes)} free`, { evidence });
  },
});
