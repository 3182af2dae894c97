import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { exampleBlock } from '../helpers/markdown.js';
import { REPO_ROOT, collectorBinary, requireCommand, run } from './tools.js';

// docs/pipeline.md, "Add it to your own collector, Prometheus, Alertmanager
// and Grafana": each snippet, as a reader copies it, added to a small existing
// configuration and checked by the real program. The collector snippet is
// also compared with otel-collector.yaml, and the Alertmanager one with
// deploy/alertmanager/alertmanager.yml, so that neither can drift.

type Yaml = Record<string, unknown>;

const DOC = join(REPO_ROOT, 'docs/pipeline.md');
const snippet = (name: string): Yaml => parse(exampleBlock(DOC, name)) as Yaml;
/** A shipped YAML file, with each `${env:NAME:-default}` read as its default. */
const shipped = (path: string): Yaml =>
  parse(
    readFileSync(join(REPO_ROOT, path), 'utf8').replace(/\$\{env:[A-Z_]+:-([^}]+)\}/g, '$1'),
  ) as Yaml;
const at = (object: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>((o, k) => (o as Record<string | number, unknown> | undefined)?.[k], object);

describe('docs/pipeline.md: the snippets for your own pipeline', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'argcheck-doc-snippets-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('your collector', () => {
    const doc = snippet('collector-snippet');
    const config = shipped('otel-collector.yaml');

    it('has the identity and allow-list processors of otel-collector.yaml, unchanged', () => {
      const names = ['transform/identity', 'filter/argcheck', 'transform/argcheck'];
      for (const name of names) {
        expect(at(doc, 'processors', name), name).to.deep.equal(at(config, 'processors', name));
      }
      expect(Object.keys(at(doc, 'processors') as Yaml)).to.have.length(names.length);
    });

    it('wires them and names series as otel-collector.yaml does', () => {
      for (const pipeline of ['metrics', 'logs']) {
        expect(at(doc, 'service', 'pipelines', pipeline, 'processors')).to.deep.equal(
          at(config, 'service', 'pipelines', pipeline, 'processors'),
        );
      }
      const exporter = at(config, 'exporters', 'prometheus') as Yaml;
      expect(at(doc, 'exporters', 'prometheus')).to.deep.equal({
        endpoint: exporter.endpoint,
        translation_strategy: exporter.translation_strategy,
        without_scope_info: exporter.without_scope_info,
      });
    });

    // Someone's collector before argcheck: OTLP in, Prometheus and debug out.
    const existing = {
      receivers: { otlp: { protocols: { http: { endpoint: '127.0.0.1:4318' } } } },
      processors: { memory_limiter: { check_interval: '1s', limit_mib: 512 }, batch: {} },
      exporters: { prometheus: { endpoint: '127.0.0.1:8889' }, debug: {} },
      service: {
        pipelines: {
          metrics: {
            receivers: ['otlp'],
            processors: ['memory_limiter', 'batch'],
            exporters: ['prometheus'],
          },
          logs: {
            receivers: ['otlp'],
            processors: ['memory_limiter', 'batch'],
            exporters: ['debug'],
          },
        },
      },
    };
    const validate = (extra: Yaml) => {
      const base = join(dir, 'existing-collector.yaml');
      const added = join(dir, 'argcheck.yaml');
      writeFileSync(base, stringify(existing));
      writeFileSync(added, stringify(extra));
      return run(collectorBinary(), ['validate', '--config', base, '--config', added]);
    };

    it('validates with argcheck-otelcol, passed after an existing configuration', () => {
      const result = validate(doc);
      expect(result.status, result.output).to.equal(0);
    });

    it('is what makes that configuration valid (without its processors it is not)', () => {
      const result = validate({ ...doc, processors: {} });
      expect(result.status, result.output).to.not.equal(0);
      // With all of them gone the collector names whichever it misses first,
      // in Go's map order; with one gone at a time, it must name that one.
      const processors = at(doc, 'processors') as Yaml;
      expect(Object.keys(processors)).to.include.members(['transform/identity', 'filter/argcheck']);
      for (const name of Object.keys(processors)) {
        const others = Object.fromEntries(Object.entries(processors).filter(([n]) => n !== name));
        const without = validate({ ...doc, processors: others });
        expect(without.status, `${name}: ${without.output}`).to.not.equal(0);
        expect(without.output).to.include(name);
      }
    });
  });

  describe('your Prometheus', () => {
    const doc = snippet('prometheus-snippet');

    it('scrapes the collector like deploy/prometheus/prometheus.yml, honouring its labels', () => {
      const ours = (
        at(shipped('deploy/prometheus/prometheus.yml'), 'scrape_configs') as Yaml[]
      ).find((job) => job.job_name === 'argcheck-collector');
      const job = at(doc, 'scrape_configs', 0) as Yaml;
      expect({ job_name: job.job_name, honor_labels: job.honor_labels }).to.deep.equal({
        job_name: ours?.job_name,
        honor_labels: ours?.honor_labels,
      });
      expect(job.static_configs).to.deep.equal([{ targets: ['127.0.0.1:8889'] }]);
    });

    it('passes promtool check config, appended to an existing prometheus.yml, rules included', () => {
      requireCommand('promtool');
      const existing = {
        global: { scrape_interval: '15s' },
        alerting: { alertmanagers: [{ static_configs: [{ targets: ['127.0.0.1:9093'] }] }] },
        rule_files: [] as unknown[],
        scrape_configs: [
          { job_name: 'prometheus', static_configs: [{ targets: ['127.0.0.1:9090'] }] },
        ],
      };
      existing.rule_files.push(...(doc.rule_files as unknown[]));
      existing.scrape_configs.push(...(doc.scrape_configs as typeof existing.scrape_configs));
      const file = join(dir, 'prometheus.yml');
      writeFileSync(file, stringify(existing));
      copyFileSync(
        join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml'),
        join(dir, 'argcheck.rules.yml'),
      );
      const result = run('promtool', ['check', 'config', file]);
      expect(result.status, result.output).to.equal(0);
      expect(result.output).to.match(/argcheck\.rules\.yml[\s\S]*SUCCESS: 13 rules found/);
    });
  });

  describe('your Alertmanager', () => {
    const doc = snippet('alertmanager-snippet');
    const config = shipped('deploy/alertmanager/alertmanager.yml');

    it('has the route, receiver and inhibit rule of deploy/alertmanager/alertmanager.yml', () => {
      // `continue: false` is the default; the snippet leaves it out.
      const route = { ...(at(config, 'route', 'routes', 0) as Yaml) };
      expect(route.continue).to.equal(false);
      delete route.continue;
      expect(at(doc, 'route', 'routes')).to.deep.equal([route]);
      const receiver = (at(config, 'receivers') as Yaml[]).find(
        (r) => r.name === 'argcheck-webhook',
      )!;
      const hook = at(receiver, 'webhook_configs', 0) as Yaml;
      expect(at(doc, 'receivers')).to.deep.equal([
        { ...receiver, webhook_configs: [{ ...hook, url: 'https://hooks.example.com/argcheck' }] },
      ]);
      expect(at(doc, 'inhibit_rules')).to.deep.equal(at(config, 'inhibit_rules'));
    });

    it('passes amtool check-config in an existing tree and routes only argcheck alerts to its receiver', () => {
      requireCommand('amtool');
      const existing = {
        route: {
          receiver: 'team-default',
          group_by: ['alertname'],
          routes: [{ receiver: 'team-pager', matchers: ['severity="critical"'] }],
        },
        receivers: [{ name: 'team-default' }, { name: 'team-pager' }],
        inhibit_rules: [] as unknown[],
      };
      existing.route.routes.push(...(at(doc, 'route', 'routes') as typeof existing.route.routes));
      existing.receivers.push(...(doc.receivers as typeof existing.receivers));
      existing.inhibit_rules.push(...(doc.inhibit_rules as unknown[]));
      const file = join(dir, 'alertmanager.yml');
      writeFileSync(file, stringify(existing));
      const check = run('amtool', ['check-config', file]);
      expect(check.status, check.output).to.equal(0);
      const routes = (labels: string[]) =>
        run('amtool', [
          'config',
          'routes',
          'test',
          `--config.file=${file}`,
          ...labels,
        ]).stdout.trim();
      for (const alert of [
        ['alertname=ToolArgumentInventionRate', 'tool=refund_order', 'argument=reason_code'],
        ['alertname=ToolArgumentCheckUnavailable', 'set=identity.active_handles'],
        ['alertname=ToolArgumentValueSetStale', 'set=wms.warehouses', 'source=static'],
      ]) {
        expect(routes([...alert, 'component=argcheck', 'severity=warning']), alert[0]).to.equal(
          'argcheck-webhook',
        );
      }
      expect(routes(['alertname=DiskFull', 'severity=warning'])).to.equal('team-default');
    });
  });
});
