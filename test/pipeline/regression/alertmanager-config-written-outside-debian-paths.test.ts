import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, hasCommand } from '../tools.js';

// Defect: docs/pipeline.md wrote the Alertmanager configuration to
// /etc/alertmanager/alertmanager.yml. The Debian package that
// deploy/install-tools.sh installs has no such directory and reads
// /etc/prometheus/alertmanager.yml, so the command failed, or wrote a file
// nothing reads. Every file a doc writes under /etc/prometheus or
// /etc/alertmanager must go to a directory one of the installed packages owns.

interface Write {
  where: string;
  target: string;
}

function writesUnderEtc(): Write[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs')).filter((n) => n.endsWith('.md'));
  return ['README.md', ...docs.map((n) => `docs/${n}`)].flatMap((file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
      [
        ...(block[1] ?? '').matchAll(
          /(?:>|\btee|\bcp\b[^\n]*?)\s+(\/etc\/(?:prometheus|alertmanager)\S*)/g,
        ),
      ].map((m) => ({ where: file, target: m[1]! })),
    );
  });
}

describe('regression: the docs wrote the Alertmanager configuration where Debian does not read it', () => {
  const writes = writesUnderEtc();

  it('finds the command that installs alertmanager.yml', () => {
    expect(writes.map((w) => w.target)).to.include('/etc/prometheus/alertmanager.yml');
  });

  for (const write of writes) {
    it(`${write.where}: ${write.target} is in a directory the Debian packages own`, () => {
      expect(hasCommand('dpkg'), 'dpkg (Debian or Ubuntu; deploy/install-tools.sh)').to.equal(true);
      const dir = write.target.endsWith('/') ? write.target.slice(0, -1) : dirname(write.target);
      const owner = spawnSync('dpkg', ['-S', dir], { encoding: 'utf8' });
      expect(owner.status, `dpkg -S ${dir}: ${owner.stderr}`).to.equal(0);
      expect(owner.stdout).to.match(/prometheus/);
    });
  }
});
