// A JSON answer made with its text kept beside it, so that a step after the surface that rewrites the body takes
// the text rather than reading it back from the body's stream, an encoding and a decoding of the whole answer for
// nothing.
const texts = new WeakMap<Response, string>();

export function jsonResponse(json: string, init: ResponseInit): Response {
  const res = new Response(json, init);
  texts.set(res, json);
  return res;
}

/** The answer's body text: the one it was made with when known, else read from its body. */
export const responseText = (res: Response): Promise<string> => {
  const text = texts.get(res);
  return text === undefined ? res.text() : Promise.resolve(text);
};
