import { cloudflareQueueFixture } from './cloudflare-queue-fixture.js';
import { describeJobQueueContract } from './job-queue.contract.js';

// The shared contract, with Queues' push played by the fixture's pump: no lease cases (a claim is never renewed, it outlasts its run).
describeJobQueueContract('jobs pushed by Cloudflare Queues, kept in the database (SQLite)', cloudflareQueueFixture);
