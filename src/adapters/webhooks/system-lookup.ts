import { lookup as dnsLookup } from 'node:dns/promises';
import type { AddressLookup } from './address-policy.js';

/** The operating system resolver (what `net.connect` would use), returning all addresses in resolver order. */
export const systemLookup: AddressLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};
