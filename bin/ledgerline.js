#!/usr/bin/env node
// The `ledgerline` command runs the compiled CLI (npm run build).
import '../dist/cli/run.js';
