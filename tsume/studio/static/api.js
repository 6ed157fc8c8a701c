// The studio's API, as the page calls it: JSON in, JSON out, one-line errors.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function call(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError('the studio does not answer: is tsume serve still running?', 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError((data && data.error) || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

export const get = (path) => call('GET', path);
export const post = (path, body) => call('POST', path, body);
export const put = (path, body) => call('PUT', path, body);
export const del = (path) => call('DELETE', path);

// A job: start it, then poll until it ends.  onUpdate(view) sees every state.
export class Job {
  constructor(path, body, onUpdate) {
    this.path = path;
    this.body = body;
    this.onUpdate = onUpdate || (() => {});
    this.id = null;
    this.cancelled = false;
  }

  async run() {
    let view = await post(this.path, this.body);
    this.id = view.id;
    this.onUpdate(view);
    while (view.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 150));
      view = await get(`/api/jobs/${this.id}`);
      this.onUpdate(view);
    }
    return view;
  }

  async cancel() {
    this.cancelled = true;
    if (this.id) return del(`/api/jobs/${this.id}`);
    return null;
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children) node.append(child);
  return node;
}

export function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}
