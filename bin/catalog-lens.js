#!/usr/bin/env node
// The command line for CI: `catalog-lens check [paths…] [--format text|json|sarif] [--fail-on …]`.
require('../dist/cli.js');
