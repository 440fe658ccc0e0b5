#!/usr/bin/env node
// The language server, for any editor: `catalog-lens-server --stdio`.
require('../dist/server.js');
