/** The Worker the contract suites run in: they use its bindings through `env`, never its fetch handler. */
export default {
  fetch: (): Response => new Response('imagegate contract suites', { status: 404 }),
};
