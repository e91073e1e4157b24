// The measurements of `npm run bench`, in the order they run. Each module exports
// { name, title, target, defaultRuns, run({ runs, version }) -> { rows, verdicts } }:
// rows are printed as a table (label, runs, median, p90, min, max and any extra columns),
// verdicts as PASS/FAIL lines against the performance targets. Add a measurement by adding
// its module here.
import aggregate from './aggregate.mjs';
import check from './check.mjs';
import clusterScaling from './cluster-scaling.mjs';
import depth from './depth.mjs';
import firstCall from './first-call.mjs';
import floor from './floor.mjs';
import inputMemory from './input-memory.mjs';
import inventory from './inventory.mjs';
import loadTime from './load-time.mjs';
import nodeCheck from './node-check.mjs';
import rollingCoverage from './rolling-coverage.mjs';
import serve from './serve.mjs';
import serveDescriptors from './serve-descriptors.mjs';
import serveFootprint from './serve-footprint.mjs';
import serveResources from './serve-resources.mjs';
import startup from './startup.mjs';

export const measurements = [startup, firstCall, nodeCheck, depth, floor, check, aggregate, inventory, inputMemory, clusterScaling, rollingCoverage, serve, serveResources, serveDescriptors, serveFootprint, loadTime];
