// A reply from the user's backend through the server's chat engine (docs/engine.md): POST /api/tankard/generate
// builds the prompt as ST's frontend would, streams the reply and saves the user's message and the reply into the
// chat. The browser only shows the text as it arrives; what was saved is read back from the chat.
import { completionText, post, readEvents } from './api.js';

/** Tankard's mark on a reply whose backend died mid-stream (src/main/java/tankard/engine/Turns.java CUT_OFF). */
export const CUT_OFF = 'tankard_cut_off';

/**
 * Asks the engine for a reply: action is send (with the typed text), regenerate, swipe, continue or impersonate;
 * ref names the chat ({avatar_url, file_name}). onText gets the whole text so far as it streams. Answers
 * {text, stopped}; a stop through signal ends it early (the server keeps what came, as ST does). Throws an
 * ApiError with the server's reason when the backend cannot be reached, answers an error or dies mid-stream.
 */
export async function generate(ref, action, text, onText, signal) {
  const response = await post('/api/tankard/generate', { ...ref, action, text }, { signal });
  if ((response.headers.get('Content-Type') ?? '').includes('application/json')) { // not streamed: whole
    const answer = await response.json();
    onText(answer.text ?? '');
    return { text: answer.text ?? '', stopped: false };
  }
  let streamed = '';
  let cleaned = null; // an impersonation's text as the server cleaned it, its stream's last event (docs/engine.md)
  try {
    await readEvents(response, (data) => {
      if (typeof data?.tankard_text === 'string') cleaned = data.tankard_text;
      else {
        streamed += completionText(data);
        onText(streamed);
      }
    });
  } catch (e) {
    if (signal?.aborted) return { text: streamed, stopped: true };
    throw e;
  }
  return { text: cleaned ?? streamed, stopped: false };
}
