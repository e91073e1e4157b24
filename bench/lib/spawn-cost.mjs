// What one spawn costs the Node process that makes it: `node bench/lib/spawn-cost.mjs [MiB]`
// grows the process by MiB of buffers and small objects (0 by default), spawns /bin/true 20
// times to warm up, then 200 times one after the other with two pipes in a process group of its
// own (as qprep's runner does), and prints the parent's user and system CPU per call and the wall
// time per call. Not part of `npm run bench`: the figure behind docs/performance.md's account of
// serve's CPU.
import { spawn } from 'node:child_process';

const ballastMiB = Number(process.argv[2] ?? 0);
const keep = [];
for (let i = 0; i < ballastMiB; i++) keep.push(Buffer.alloc(1024 * 1024, 1));
for (let i = 0; i < ballastMiB * 5000; i++) keep.push({ index: i, text: `x${i}` });

const once = () =>
  new Promise((resolve) => {
    const child = spawn('/bin/true', [], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', () => {});
    child.stderr.on('data', () => {});
    child.on('close', resolve);
  });

const CALLS = 200;
for (let i = 0; i < 20; i++) await once();
const cpu = process.cpuUsage();
const started = performance.now();
for (let i = 0; i < CALLS; i++) await once();
const used = process.cpuUsage(cpu);
const perCall = (micros) => (micros / CALLS / 1000).toFixed(2);
console.log(
  `ballast ${ballastMiB} MiB, resident ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB: per call user ${perCall(used.user)} ms, system ${perCall(used.system)} ms, wall ${((performance.now() - started) / CALLS).toFixed(2)} ms`,
);
