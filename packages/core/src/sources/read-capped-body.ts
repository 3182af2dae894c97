import { ValueSetPayloadError } from './payload-error.js';

/**
 * Bytes read between two turns of the event loop. Chunks already queued in the
 * stream are handed over in promise jobs, which would otherwise run back to
 * back in a single turn however large the body.
 */
const BYTES_PER_TURN = 256 * 1024;

/**
 * Read a response body as UTF-8 text, refusing it as `too_large` as soon as
 * more than `maxBytes` have arrived: the stream is cancelled there, so an
 * oversized or endless body costs at most `maxBytes` of memory. `onText`
 * sees the text piece by piece as it is decoded (the pieces join to the
 * result); the event loop gets a turn (`setImmediate`) every 256 KiB.
 */
export async function readCappedBody(
  response: Response,
  maxBytes: number,
  onText?: (piece: string) => void,
): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`declares ${declared} bytes`, maxBytes);
  }
  if (response.body === null) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  let received = 0;
  let sinceTurn = 0;
  const add = (piece: string): void => {
    text += piece;
    onText?.(piece);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        add(decode(decoder));
        return text;
      }
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(`went past ${maxBytes} bytes`, maxBytes);
      }
      add(decode(decoder, value));
      sinceTurn += value.byteLength;
      if (sinceTurn >= BYTES_PER_TURN) {
        sinceTurn = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function decode(decoder: InstanceType<typeof TextDecoder>, chunk?: Uint8Array): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch {
    throw new ValueSetPayloadError('malformed', 'response body is not valid UTF-8');
  }
}

function tooLarge(what: string, maxBytes: number): ValueSetPayloadError {
  return new ValueSetPayloadError(
    'too_large',
    `response body ${what}, over the maxBytes limit of ${maxBytes}; raise maxBytes or trim the payload`,
  );
}
