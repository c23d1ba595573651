#!/usr/bin/env node
// The `ledgerline` command runs the compiled CLI (npm run build).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
