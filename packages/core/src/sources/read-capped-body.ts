import { ValueSetPayloadError } from './payload-error.js';

/**
 * Read a response body as UTF-8 text, refusing it as `too_large` as soon as
 * more than `maxBytes` have arrived: the stream is cancelled there, so an
 * oversized or endless body costs at most `maxBytes` of memory.
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<string> {
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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decode(decoder);
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(`went past ${maxBytes} bytes`, maxBytes);
      }
      text += decode(decoder, value);
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
