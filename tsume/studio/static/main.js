// The studio page: its tabs, and the modules behind each.

import {Job, get} from './api.js';
import {initCollections} from './collections.js';
import {initCompose} from './compose.js';
import {initEditor, openProblem} from './editor.js';
import {createPlayer} from './play.js';
import {initResults} from './results.js';
import {SEARCHED, current, onProblem, problemBody, staleNote} from './state.js';

const $ = (id) => document.getElementById(id);

function select(tab) {
  document.querySelectorAll('.tabs [role="tab"]').forEach((t) => {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    $(t.getAttribute('aria-controls')).hidden = !on;
  });
}

// Open a problem in the editor and show it there.
async function openInEditor(problem, origin) {
  select($('tab-setup'));
  return openProblem(problem, origin);
}

function summary(problem) {
  const where = current.source ? ` · ${current.source}` : '';
  const stated = problem.length ? ` · mate in ${problem.length} (stated)` : '';
  $('summary').textContent = `${problem.variant} · ${problem.position}${stated}${where}`;
}

function initPlay() {
  let job = null;
  // The problem the player plays (null: none); another one set up since is said.
  let played = null;
  const stale = () => {
    const note = played ? staleNote(played, SEARCHED, 'press Play this problem again') : '';
    $('play-stale').textContent = note;
    $('play-stale').hidden = !note;
  };
  onProblem(stale);
  $('play-start').addEventListener('click', async () => {
    $('play-start').disabled = true;
    $('play-cancel').disabled = false;
    $('player').replaceChildren();
    $('play-progress').textContent = 'Building the tree of right and wrong moves...';
    played = null;
    stale();
    const problem = problemBody();
    job = new Job('/api/play', {problem}, (v) => {
      const p = v.progress || {};
      if (v.state === 'running' && p.tree_nodes) {
        $('play-progress').textContent = `Building the tree: ${p.tree_nodes} positions, ${p.nodes.toLocaleString('en')} nodes...`;
      }
    });
    try {
      const final = await job.run();
      if (final.state === 'done') {
        $('play-progress').textContent = final.result.complete ? '' : 'A limit stopped some searches: some moves are not judged.';
        createPlayer($('player'), final.result);
        played = problem;
        stale();
      } else {
        $('play-progress').textContent = final.state === 'cancelled' ? 'Cancelled.' : (final.error || 'Failed.');
      }
    } catch (err) {
      $('play-progress').textContent = err.message;
    }
    $('play-start').disabled = false;
    $('play-cancel').disabled = true;
  });
  $('play-cancel').addEventListener('click', () => { if (job) job.cancel(); });
}

async function main() {
  document.querySelectorAll('.tabs [role="tab"]').forEach((t) => t.addEventListener('click', () => select(t)));
  const info = await get('/api/info');
  onProblem(summary);
  initEditor(info);
  initResults();
  initPlay();
  initCompose(openInEditor);
  await initCollections(openInEditor);
  // A first problem to look at: the bundled examples' first, else an empty board.
  let first = {position: 'k30 b - 1', variant: 'ito'};
  try {
    const examples = await get('/api/collections/examples');
    first = examples.problems.find((p) => p.id === 'ito-05') || examples.problems[0];
  } catch (err) {
    // no bundled examples: the empty board will do
  }
  await openProblem(first, first.id ? `examples [${first.id}]` : null);
  document.body.dataset.ready = 'true';
}

main();
