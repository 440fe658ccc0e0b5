#!/usr/bin/env node
// The command line: `catalog-lens check [paths…] [--format text|json|sarif] [--fail-on …]` for CI, `catalog-lens mcp [folder]` for agents.
require('../dist/cli.js');
