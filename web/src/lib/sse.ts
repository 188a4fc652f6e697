/** One Server-Sent Events message: its `event` name ("message" when none is given) and its data lines joined. */
export interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Reads an event stream as it arrives, in pieces cut anywhere (even inside a line or a CRLF), by the rules of the
 * HTML standard's "interpreting an event stream": `event`, `data` (lines joined with "\n"), `id`; comments and
 * unknown fields ignored; a message is dispatched at a blank line, and one without data is not dispatched.
 */
export function sseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event === '' ? 'message' : event, data: data.join('\n'), id });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  };
  return (chunk) => {
    buffer += chunk;
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone CR at the very end may be the first half of a CRLF: wait for the next piece.
      if (end < 0 || (buffer[end] === '\r' && end === buffer.length - 1)) return;
      line(buffer.slice(0, end));
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
    }
  };
}
