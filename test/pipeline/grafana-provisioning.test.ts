import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { loadDashboard } from './dashboard-queries.js';
import { REPO_ROOT } from './tools.js';

// deploy/grafana/provisioning/, in Grafana's provisioning format (apiVersion 1),
// checked for structure: no Grafana server runs here. The keys allowed are
// those Grafana's provisioning readers decode (pkg/services/provisioning/
// datasources and dashboards, configs for apiVersion 1); a misspelt key would
// be ignored by Grafana without a word, so it fails here. The copy commands in
// docs/pipeline.md, "Your Grafana", must put each file where the other expects it.

type Yaml = Record<string, unknown>;

const PROVISIONING = join(REPO_ROOT, 'deploy/grafana/provisioning');
const DATASOURCE_FILE = join(PROVISIONING, 'datasources/argcheck-prometheus.yaml');
const PROVIDER_FILE = join(PROVISIONING, 'dashboards/argcheck.yaml');

const DATASOURCE_KEYS = [
  'name', 'uid', 'type', 'access', 'orgId', 'url', 'user', 'database', 'basicAuth',
  'basicAuthUser', 'withCredentials', 'isDefault', 'jsonData', 'secureJsonData', 'version', 'editable',
]; // prettier-ignore
const PROVIDER_KEYS = [
  'name', 'type', 'orgId', 'folder', 'folderUid', 'editable', 'options', 'disableDeletion',
  'updateIntervalSeconds', 'allowUiUpdates',
]; // prettier-ignore
const PROVIDER_OPTION_KEYS = ['path', 'foldersFromFilesStructure'];

const yaml = (path: string): Yaml => parse(readFileSync(path, 'utf8')) as Yaml;

/** The `sudo cp SOURCE TARGET` lines of the "Your Grafana" block. */
function docCopies(): { source: string; target: string }[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs/pipeline.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Your Grafana'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return [...block.matchAll(/^sudo cp (\S+) (\S+)$/gm)].map((m) => ({
    source: m[1]!,
    target: m[2]!,
  }));
}

describe('Grafana provisioning files', () => {
  const datasourceFile = yaml(DATASOURCE_FILE);
  const providerFile = yaml(PROVIDER_FILE);
  const datasources = datasourceFile.datasources as Yaml[];
  const providers = providerFile.providers as Yaml[];

  it('are apiVersion 1 files with one data source and one dashboard provider', () => {
    expect(datasourceFile.apiVersion).to.equal(1);
    expect(providerFile.apiVersion).to.equal(1);
    expect(Object.keys(datasourceFile).sort()).to.deep.equal(['apiVersion', 'datasources']);
    expect(Object.keys(providerFile).sort()).to.deep.equal(['apiVersion', 'providers']);
    expect(datasources).to.have.length(1);
    expect(providers).to.have.length(1);
  });

  it('define a Prometheus data source on the address the docs run Prometheus at, with its scrape interval', () => {
    const source = datasources[0]!;
    expect(DATASOURCE_KEYS).to.include.members(Object.keys(source));
    expect(source).to.include({
      name: 'argcheck Prometheus',
      uid: 'argcheck-prometheus',
      type: 'prometheus',
      access: 'proxy',
      url: 'http://127.0.0.1:9090',
    });
    const prometheusYml = yaml(join(REPO_ROOT, 'deploy/prometheus/prometheus.yml'));
    const global = prometheusYml.global as Yaml;
    expect(source.jsonData).to.deep.equal({
      timeInterval: global.scrape_interval,
      httpMethod: 'POST',
    });
  });

  it('define a file provider whose folder is where the docs copy the dashboard', () => {
    const provider = providers[0]!;
    expect(PROVIDER_KEYS).to.include.members(Object.keys(provider));
    expect(provider).to.include({ type: 'file', orgId: 1, folder: 'argcheck' });
    const options = provider.options as Yaml;
    expect(PROVIDER_OPTION_KEYS).to.include.members(Object.keys(options));
    const copies = docCopies();
    expect(copies.map((c) => c.source).sort()).to.deep.equal(
      [
        'deploy/grafana/argcheck-dashboard.json',
        'deploy/grafana/provisioning/dashboards/argcheck.yaml',
        'deploy/grafana/provisioning/datasources/argcheck-prometheus.yaml',
      ].sort(),
    );
    for (const { source } of copies)
      expect(existsSync(join(REPO_ROOT, source)), source).to.equal(true);
    const dashboardCopy = copies.find((c) => c.source.endsWith('.json'))!;
    expect(dashboardCopy.target.replace(/\/$/, '')).to.equal(options.path);
    const target = (file: string) => copies.find((c) => c.source.endsWith(file))?.target;
    expect(target(basename(DATASOURCE_FILE))).to.equal('/etc/grafana/provisioning/datasources/');
    expect(target(basename(PROVIDER_FILE))).to.equal('/etc/grafana/provisioning/dashboards/');
  });

  it('provision a dashboard whose data source variable takes the provisioned type', () => {
    const dashboard = loadDashboard();
    expect(dashboard.uid).to.match(/^[\w-]{1,40}$/);
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable?.query).to.equal(datasources[0]!.type);
  });

  it('provision a dashboard whose query annotations use the data source variable of that type', () => {
    const queried = (loadDashboard().annotations?.list ?? []).filter((a) => a.builtIn !== 1);
    expect(queried, 'the value-set change annotations').to.not.be.empty;
    for (const a of queried) {
      expect(a.datasource, a.name).to.deep.equal({
        type: datasources[0]!.type,
        uid: '${datasource}',
      });
      expect(a.expr, a.name).to.be.a('string').and.not.be.empty;
    }
  });
});
