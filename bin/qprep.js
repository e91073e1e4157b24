#!/usr/bin/env node
// The CLI as one module (npm run build writes it with scripts/bundle.mjs): loading the ~300
// modules of dist/src one by one, each resolved, read and linked, is most of qprep's start-up.
import '../dist/qprep.mjs';
