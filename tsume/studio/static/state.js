// The problem the studio works on, shared by its tabs: the editor writes
// it, the other tabs read it (and a collection or the composer opens one).

const listeners = [];

export const current = {
  problem: {variant: 'ito', position: 'k29K b - 1', defender: null, length: null, solution: null,
            id: null, title: null, author: null, tags: [], notes: null},
  // Where it came from ("collection name" and id), for the summary line.
  source: null,
};

// A problem as the API's problem object (no empty fields).
export function problemBody(p = current.problem) {
  const out = {position: p.position, variant: p.variant};
  for (const key of ['defender', 'length', 'solution', 'id', 'title', 'author', 'notes']) {
    if (p[key] !== null && p[key] !== undefined && p[key] !== '' &&
        !(Array.isArray(p[key]) && p[key].length === 0)) out[key] = p[key];
  }
  if (p.tags && p.tags.length) out.tags = p.tags;
  return out;
}

export function setProblem(problem, origin) {
  current.problem = {...current.problem, ...problem};
  if (origin !== undefined) current.source = origin;
  for (const f of listeners) f(current.problem, origin);
}

export function onProblem(f) {
  listeners.push(f);
}
