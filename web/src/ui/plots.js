// The live plots panel: a collapsible box of small uPlot charts (particles, max speed, density error, real-time factor) over the last five minutes.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { el, formatNumber } from '../util/dom.js';
import { TimeRing } from '../util/time_ring.js';
import { PLOT_CAPACITY, PLOT_SERIES, PLOT_WINDOW_S, agoLabel, lastValue, statsSample, yRange } from './plot_series.js';

const REDRAW_MS = 500;
const CHART_HEIGHT = 76;
const COLOURS = ['#4cc2f0', '#f0c674', '#e8833a', '#7ddc8a'];

/**
 * Collects every `stats` message of the subscribed world (record()) and, while open, redraws
 * its charts twice a second. Series the server does not send stay empty ("not sent by this
 * server") instead of failing. now(): wall clock in seconds.
 */
export class PlotsPanel {
  constructor(host, { now = () => Date.now() / 1000 } = {}) {
    this.now = now;
    this.ring = new TimeRing(PLOT_CAPACITY, PLOT_SERIES.map((s) => s.key));
    this.charts = null;
    this.timer = null;
    this.body = el('div', { className: 'plots-body' });
    this.summary = el('summary', { testid: 'plots-toggle', text: 'Plots', title: 'Live plots of the last five minutes (P)' });
    this.element = el('details', { testid: 'plots-panel', className: 'plots-panel' }, [this.summary, this.body]);
    this.element.addEventListener('toggle', () => this.opened(this.element.open));
    host.append(this.element);
  }

  get open() {
    return this.element.open;
  }

  toggle(open = !this.element.open) {
    this.element.open = open;
  }

  /** A stats message of the subscribed world. */
  record(stats) {
    this.ring.push(this.now(), statsSample(stats));
  }

  /** Another world (or a new connection to it): the old samples do not belong to it. */
  clear() {
    this.ring.clear();
    if (this.open) this.redraw();
  }

  opened(open) {
    clearInterval(this.timer);
    this.timer = null;
    if (!open) return;
    if (!this.charts) this.build();
    this.redraw();
    this.timer = setInterval(() => this.redraw(), REDRAW_MS);
  }

  build() {
    const width = Math.max(200, this.body.clientWidth || 300);
    this.charts = PLOT_SERIES.map((series, i) => {
      const value = el('span', { className: 'plot-value', testid: `plot-value-${series.key}`, text: '–' });
      const box = el('div', { className: 'plot', testid: `plot-${series.key}` }, [
        el('div', { className: 'plot-title' }, [el('span', { text: series.unit ? `${series.title} (${series.unit})` : series.title }), value]),
      ]);
      this.body.append(box);
      const chart = new uPlot({
        width,
        height: CHART_HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false }, y: { range: (u, min, max) => yRange(min, max) } },
        axes: [
          { stroke: '#8fa1b5', grid: { stroke: 'rgba(255,255,255,0.07)' }, ticks: { show: false }, size: 18, font: '10px system-ui',
            values: (u, splits) => splits.map(agoLabel) },
          { stroke: '#8fa1b5', grid: { stroke: 'rgba(255,255,255,0.07)' }, ticks: { show: false }, size: 44, font: '10px system-ui',
            values: (u, splits) => splits.map((v) => formatNumber(v)) },
        ],
        series: [{}, { stroke: COLOURS[i % COLOURS.length], width: 1.5, spanGaps: false, points: { show: false } }],
      }, [[], []], box);
      return { series, chart, value, box };
    });
  }

  redraw() {
    if (!this.charts) return;
    const now = this.now();
    const columns = this.ring.window(now, PLOT_WINDOW_S);
    // x is seconds before now; the axis spans the samples held (growing up to five minutes).
    const ago = columns[0].map((t) => t - now);
    const span = Math.min(PLOT_WINDOW_S, Math.max(30, -(ago[0] ?? 0)));
    this.charts.forEach(({ chart, value, box }, k) => {
      const column = columns[k + 1];
      const last = lastValue(column);
      box.dataset.samples = String(column.filter((v) => v !== null).length);
      if (last !== null) value.textContent = formatNumber(last);
      else value.textContent = column.length === 0 ? '–' : 'not sent by this server';
      chart.batch(() => {
        chart.setData([ago, column]);
        chart.setScale('x', { min: -span, max: 0 });
      });
    });
  }
}

