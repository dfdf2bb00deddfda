// Entry point: reads the link, starts the viewer and installs the window.fluidcast test hook.
import './style.css';
import { App } from './app.js';
import { parseLink } from './links.js';
import { installTestHook } from './test_hook.js';

const byId = (id) => document.getElementById(id);
const link = parseLink(window.location.search);
const app = new App({
  viewport: byId('viewport'),
  toolbar: byId('toolbar'),
  panel: byId('panel'),
  side: byId('side'),
  emitters: byId('emitters'),
  overlay: byId('status'),
  legend: byId('legend'),
  toast: byId('toast'),
  watchNote: byId('watch-note'),
}, link, { devServer: import.meta.env.DEV ? link.server : null });
installTestHook(app);
app.start();
