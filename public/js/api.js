// The server's HTTP API as Tankard's UI uses it: ST's routes (the same ones ST's own frontend calls) and
// Tankard's /api/tankard/ routes for what ST's frontend loads whole. Every call sends the CSRF token, and a failed
// call throws an ApiError with the server's message.

let csrfToken = null;

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function token() {
  if (csrfToken === null) {
    const response = await fetch('/csrf-token', { cache: 'no-store' });
    if (!response.ok) throw new ApiError(`The server did not answer (${response.status})`, response.status);
    csrfToken = (await response.json()).token;
  }
  return csrfToken;
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      // ST's routes answer {error: true, message} as often as {error: "…"} or {error: {message}}
      const said = typeof body.error === 'string' ? body.error : body.error?.message ?? body.message;
      if (said !== undefined && said !== null) message = typeof said === 'string' ? said : JSON.stringify(said);
    } catch {
      if (text.trim()) message = text.trim().slice(0, 300);
    }
  } catch { /* keep the status line */ }
  if (response.status === 401) location.href = '/login'; // accounts are on and the session is gone
  return new ApiError(message, response.status);
}

/** POSTs a JSON body (or FormData) and answers the response; throws on a status that is not 2xx. */
export async function post(path, body = {}, { signal } = {}) {
  const headers = { 'X-CSRF-Token': await token() };
  const form = body instanceof FormData;
  if (!form) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method: 'POST', headers, body: form ? body : JSON.stringify(body), signal });
  if (!response.ok) throw await failure(response);
  return response;
}

/** POSTs and answers the JSON reply (an empty reply is null). */
export async function postJson(path, body = {}, options) {
  const text = await (await post(path, body, options)).text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A queue of saves: each is sent once the one before it has ended, so a later change never lands before an earlier
 * one (a failed save does not stop the next). `queue(save)` answers whether that save ended as the last one queued:
 * only then may a page say all changes are saved, since an earlier save ends while a later change still waits.
 */
export function saveQueue() {
  let last = Promise.resolve();
  return (save) => {
    const run = last = last.catch(() => {}).then(save);
    return run.then(() => run === last);
  };
}

export async function getJson(path) {
  const response = await fetch(path, { headers: { 'X-CSRF-Token': await token() } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * Reads a server-sent-events reply, handing each event's data (parsed as JSON where it is) to onData. An upstream
 * error that arrives inside the stream throws. Answers what was not an event (a backend that answered whole).
 */
export async function readEvents(response, onData) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (!data || data === '[DONE]') continue;
      let parsed;
      try {
        parsed = JSON.parse(data);
      } catch {
        parsed = data;
      }
      if (parsed && typeof parsed === 'object' && parsed.error) {
        const said = typeof parsed.error === 'string' ? parsed.error : parsed.error.message ?? parsed.message;
        throw new ApiError(said ?? 'The backend answered an error', 502);
      }
      onData(parsed);
    }
  }
  return buffer;
}

/** The text a streamed or whole completion carries, whatever the backend's shape. */
export function completionText(data) {
  if (typeof data === 'string') return data;
  const choice = data?.choices?.[0];
  return choice?.delta?.content ?? choice?.message?.content ?? choice?.text ?? data?.content ?? data?.token
    ?? data?.results?.[0]?.text ?? data?.delta?.text ?? data?.content?.[0]?.text
    ?? data?.candidates?.[0]?.content?.parts?.filter((p) => !p.thought).map((p) => p.text ?? '').join('') ?? '';
}
