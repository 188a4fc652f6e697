#!/usr/bin/env node
import '../dist/runtimes/node/entry/node.js';
