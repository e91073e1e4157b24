import { mountFor, parseMountinfo } from '../parsers/mountinfo.js';
import type { Host } from './types.js';

export interface ContainerInfo {
  inContainer: boolean;
  /** docker, podman, containerd, kubernetes, lxc, systemd-nspawn, or "container" when unsure which */
  runtime: string | null;
  /** what gave it away, for the report */
  evidence: string[];
  /** signals seen but not trusted, for the report */
  ignoredEvidence: string[];
}

const CGROUP_MARKERS: Array<[RegExp, string]> = [
  [/kubepods/, 'kubernetes'],
  [/\/docker[-/]/, 'docker'],
  [/libpod/, 'podman'],
  [/containerd/, 'containerd'],
  [/\/lxc\//, 'lxc'],
];

/**
 * Is the tree qprep examines a container? Read through the host seam, so that under
 * `--root /host` the answer describes the host tree (not the container qprep runs in),
 * and a snapshot replays it.
 */
export async function detectContainer(host: Host): Promise<ContainerInfo> {
  const evidence: string[] = [];
  let runtime: string | null = null;

  const [dockerenv, containerenv, mountinfo] = await Promise.all([
    host.stat('/.dockerenv'),
    host.stat('/run/.containerenv'),
    host.readFile('/proc/self/mountinfo'),
  ]);
  const rootMount = mountinfo.ok ? mountFor(parseMountinfo(mountinfo.value).mounts, '/') : undefined;
  const overlayRoot = rootMount !== undefined && /overlay|aufs/.test(rootMount.fsType);
  // /.dockerenv survives in VM images built from container images, so it only counts when
  // the root filesystem is the overlay a container runtime mounts (or mountinfo is unreadable).
  if (dockerenv.ok && (overlayRoot || !rootMount)) {
    evidence.push(overlayRoot ? `/.dockerenv exists and / is ${rootMount.fsType}` : '/.dockerenv exists');
    runtime ??= 'docker';
  }
  if (containerenv.ok) {
    evidence.push('/run/.containerenv exists');
    runtime ??= 'podman';
  }

  const env = host.env();
  if (host.root === '/') {
    // The environment is this process's own; it says nothing about a --root tree.
    if (env.container) {
      evidence.push(`container=${env.container} in the environment`);
      runtime ??= env.container === 'oci' ? 'container' : env.container;
    }
    if (env.KUBERNETES_SERVICE_HOST) {
      evidence.push('KUBERNETES_SERVICE_HOST is set');
      runtime ??= 'kubernetes';
    }
  }

  const cgroup = await host.readFile('/proc/1/cgroup');
  if (cgroup.ok) {
    for (const [pattern, name] of CGROUP_MARKERS) {
      if (pattern.test(cgroup.value)) {
        evidence.push(`/proc/1/cgroup mentions ${name}`);
        runtime ??= name;
        break;
      }
    }
  }

  const ignored = dockerenv.ok && !evidence.some((e) => e.startsWith('/.dockerenv'))
    ? [`/.dockerenv exists but / is ${rootMount?.fsType ?? 'not an overlay'}: not counted`]
    : [];
  return { inContainer: evidence.length > 0, ignoredEvidence: ignored, runtime: evidence.length > 0 ? (runtime ?? 'container') : null, evidence };
}
