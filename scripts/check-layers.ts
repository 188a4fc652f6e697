import { format } from 'dependency-cruiser';
import { cruiseLayers } from './layers.js';

/** `npm run lint`, after ESLint: the layers of .dependency-cruiser.cjs over src, reported as `depcruise` reports them. */
const { output, exitCode } = await format(await cruiseLayers(), { outputType: 'err' });
process.stdout.write(typeof output === 'string' ? output : '');
process.exitCode = exitCode;
