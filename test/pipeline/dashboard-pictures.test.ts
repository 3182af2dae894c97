import { expect } from 'chai';
import {
  legend,
  renderDashboard,
  type PanelData,
} from '../../deploy/stack/src/dashboard-pictures.js';
import { loadDashboard } from './dashboard-queries.js';

// The dashboard's picture (npm run docs:dashboard) is drawn from the
// dashboard's own panels: every panel, its title and its legend format. Here
// from made-up results, so that no Prometheus is needed; the command itself
// queries the stack's Prometheus after a run of the demo.

describe('the dashboard picture', () => {
  it('fills a Grafana legend format from the series labels', () => {
    expect(
      legend('{{tool}}.{{argument}} raw', { tool: 'refund_order', argument: 'reason_code' }),
    ).to.equal('refund_order.reason_code raw');
  });

  it('draws every panel with its title and legends, and the dashed 3 % line', async function () {
    this.timeout(30_000);
    const start = 1_800_000_000;
    const panels: PanelData[] = loadDashboard().panels.map((panel) => ({
      panel,
      results: Object.fromEntries(
        (panel.targets ?? []).map((target) => [
          target.refId,
          [
            {
              metric: {
                tool: 'refund_order',
                argument: 'reason_code',
                set: 'refunds.reason_codes',
                shape: 'case',
                reason: 'expired',
                outcome: 'success',
                source: 'http',
                gen_ai_request_model: 'gpt-4.1',
                tool_definition: '0a1b2c3d4e5f',
              },
              values: [0, 10, 20].map(
                (t, i) => [start + t, String(i === 1 ? 'NaN' : 0.05 * (i + 1))] as [number, string],
              ),
            },
          ],
        ]),
      ),
    }));
    const svg = await renderDashboard('a test run', panels, start, start + 20);
    expect(svg).to.match(/^<svg /);
    for (const { panel } of panels)
      expect(svg, panel.title).to.include(panel.title.replace(/&/g, '&amp;'));
    expect(svg).to.include('refund_order.reason_code raw');
    // The attribution panels' legends name the model and the tool definition.
    expect(svg).to.include('gpt-4.1 refund_order.reason_code');
    expect(svg).to.include('0a1b2c3d4e5f refund_order.reason_code');
    expect(svg).to.include('stroke-dasharray="6,4"');
  });
});
