#!/usr/bin/env node
import '../dist/entry/node.js';
