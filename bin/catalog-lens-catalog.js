#!/usr/bin/env node
// The local catalog: `catalog-lens-catalog --port 9410 --db FILE --token T --sample`.
require('../dist/catalog.js');
