/**
 * Copies of the shipped configuration with a few values changed, for the
 * stacks that run the real programs (the local stack, the end-to-end test).
 * Every change is a replacement that must match exactly as often as expected,
 * so a reshaped shipped file fails loudly instead of being copied unchanged.
 */

/** The placeholder receiver URL in deploy/alertmanager/alertmanager.yml. */
export const WEBHOOK_PLACEHOLDER = 'http://127.0.0.1:9095/argcheck-alerts';

/** `text` with every match of `pattern` replaced; throws unless it matched exactly `count` times. */
export function replaceExactly(
  text: string,
  pattern: RegExp,
  replacement: string,
  count: number,
  what: string,
): string {
  const global = new RegExp(pattern.source, pattern.flags.replace('g', '') + 'g');
  const found = text.match(global);
  if ((found?.length ?? 0) !== count) {
    throw new Error(
      `expected ${count} match(es) of ${String(pattern)} in ${what}, found ${found?.length ?? 0}: ` +
        'the shipped file changed shape; update the copy it is made into',
    );
  }
  return text.replace(global, replacement);
}

/** How many alerting rules a rules file defines. */
export function alertCount(rules: string): number {
  return rules.match(/^\s*- alert: /gm)?.length ?? 0;
}

/**
 * The rules file with every alert's `for:` set to 0s and nothing else changed.
 * Throws when the file has no `for:` line for one of its alerts.
 */
export function rulesWithoutFor(rules: string): string {
  return replaceExactly(
    rules,
    /^(\s+)for: \S+$/m,
    '$1for: 0s',
    alertCount(rules),
    'the rules file',
  );
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** alertmanager.yml with the receiver's `url:` line pointing at `url` (the placeholder also appears in comments). */
export function alertmanagerWithWebhook(config: string, url: string): string {
  return replaceExactly(
    config,
    new RegExp(`^(\\s+- url: )${escape(WEBHOOK_PLACEHOLDER)}$`, 'm'),
    `$1${url}`,
    1,
    'alertmanager.yml (webhook URL)',
  );
}

/** A YAML file with the single `key: value` line replaced (any indentation). */
export function withSetting(yaml: string, key: string, value: string, what: string): string {
  return replaceExactly(
    yaml,
    new RegExp(`^(\\s*)${escape(key)}: \\S+$`, 'm'),
    `$1${key}: ${value}`,
    1,
    what,
  );
}

/** A `targets/*.json` file (file service discovery) for one loopback port. */
export function loopbackTarget(port: number): string {
  return `${JSON.stringify([{ targets: [`127.0.0.1:${port}`], labels: {} }])}\n`;
}
