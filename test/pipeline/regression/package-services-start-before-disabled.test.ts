// Issue 21, item 13: deploy/install-tools.sh let the Debian packages start
// `prometheus`, `prometheus-alertmanager` and `victoria-metrics`, listening on
// every interface, between `apt-get install` and `systemctl disable --now`;
// and the docs ran Prometheus and Alertmanager on predictable /tmp paths. A
// policy-rc.d that refuses every start is in place for the install, and the
// docs use fresh directories from mktemp.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, run } from '../tools.js';
import { recordFigure } from '@argcheck/testing/figures';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('regression: package services started on every interface before they were disabled', () => {
  it('install-tools.sh refuses service starts (policy-rc.d, exit 101) from before apt-get install until it exits', () => {
    const script = read('deploy/install-tools.sh');
    const policy = script.indexOf('policy=/usr/sbin/policy-rc.d');
    const install = script.indexOf('apt-get install');
    expect(policy, 'policy-rc.d written').to.be.greaterThan(-1);
    expect(policy, 'before apt-get install').to.be.lessThan(install);
    expect(script).to.match(/exit 101/);
    expect(script).to.match(/trap '.*rm -f "\$policy"' EXIT/);
    // The policy file it writes refuses, as invoke-rc.d reads it.
    const body = /printf '([^']*)'/.exec(script.slice(policy))?.[1];
    expect(body).to.be.a('string');
    const result = run('sh', ['-c', `printf '${body}' | sh`]);
    expect(result.status).to.equal(101);
    expect(run('bash', ['-n', 'deploy/install-tools.sh']).status).to.equal(0);
    recordFigure(
      'install-tools-services',
      `the policy-rc.d the script writes before \`apt-get install\` exits ${result.status} (every start refused); a trap removes it when the script exits`,
    );
  });

  it('the docs and configs run Prometheus and Alertmanager on directories from mktemp, not fixed /tmp paths', () => {
    for (const file of [
      'docs/pipeline.md',
      'deploy/prometheus/prometheus.yml',
      'deploy/alertmanager/alertmanager.yml',
    ]) {
      const text = read(file);
      expect(text, file).not.to.match(/--storage\.(tsdb\.)?path=\/tmp\//);
      expect(text, file).to.match(/--storage\.(tsdb\.)?path="\$\(mktemp -d\)"/);
    }
  });
});
