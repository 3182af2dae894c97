// Reliability round 2 (issue 21): start-up, configuration changes, the
// value-capture kill switch, and the alerts on a healthy pipeline.
import { functionValueSet, staticValueSet } from '@argcheck/core';
import { ManualClock, settle } from '@argcheck/testing/clock';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { CHECKED, CODES, instrumented } from './harness.js';
import { test, type FaultRow } from './table.js';

const MIN = 60_000;
const INVENTED = { reason_code: 'CUSTOMER_UNHAPPY' };

export const roundTwo: FaultRow[] = [
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck report` given a 63 MB line of 21 million empty records (`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{},…]}]}]}`)',
    expected:
      'The line is refused before it is parsed (more than one object or array per 12 characters), in the pass that checks its nesting; the records around it are counted.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-memory-beyond-line-cap.test.ts',
        'refuses a line of 5 million empty records before parsing it',
      ),
      { benchmark: 'report-memory' },
    ],
    measure() {
      return Promise.resolve({
        figure:
          'peak resident memory in docs/benchmarks.md (`report-memory`, the 63 MB line of empty records)',
      });
    },
  },
  {
    area: 'MCP calls',
    fault:
      'An MCP catalog with a 1,000,000-member enum, a 20,000-deep `anyOf`, a shared schema graph 2^26 wide, or a schema whose getters throw',
    expected:
      'Bounded work per schema (10,000 nodes, unions 16 deep, enums of at most 10,000 members) and per listing (100,000 members derived in all, the rest dropped and counted); nothing throws, and the other tools’ enums are derived.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'a 20,000-deep anyOf neither throws nor stops the other tools’ enums',
      ),
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'a shared schema graph 2^26 wide is given up on within the node budget',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure:
          'left to the tests cited (each hostile schema beside a well-formed tool: only the well-formed enum derived, nothing thrown)',
      });
    },
  },
  {
    area: 'Adversarial arguments',
    fault:
      '`normalise` mode over a class instance, a null-prototype object, getters, non-enumerable properties, an array subclass with extra properties, a frozen object',
    expected:
      'The copy keeps the prototype, every property descriptor, the array’s extra properties and the frozen or sealed state; only the rewritten value differs (decision 0026).',
    provedBy: [
      test(
        'packages/core/test/regression/normalise-copy-changes-more-than-the-value.test.ts',
        'a class instance stays an instance of its class, its methods see the member',
      ),
      test(
        'packages/core/test/regression/normalise-copy-changes-more-than-the-value.test.ts',
        'non-enumerable and symbol properties, getters and setters are carried as they were',
      ),
    ],
    measure() {
      return Promise.resolve({ figure: 'left to the tests cited' });
    },
  },
  {
    area: 'Pipeline and fleet',
    fault:
      'Installing the Debian packages (`deploy/install-tools.sh`), which enable services listening on every interface',
    expected:
      'A policy-rc.d refusing every start (exit 101) is in place from before `apt-get install` until the script exits, so no service starts; the docs run Prometheus and Alertmanager on directories from `mktemp -d`.',
    provedBy: [
      test(
        'test/pipeline/regression/package-services-start-before-disabled.test.ts',
        'install-tools.sh refuses service starts (policy-rc.d, exit 101) from before apt-get install until it exits',
      ),
    ],
    measure() {
      return Promise.resolve({ figure: 'left to the test cited' });
    },
  },
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck report` over records whose tool, set, shape and value carry ESC, OSC, BEL, CR, U+009B or U+202E, and corrupt lines that quote them',
    expected:
      'Everything printed that came from a record or a line is escaped as `\\uXXXX`, in text, markdown and JSON, on stdout and stderr; a name with backticks stays inside its markdown code span.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-prints-control-characters.test.ts',
        'text: nothing from a hostile record or line reaches the output raw',
      ),
      test(
        'packages/cli/test/regression/report-prints-control-characters.test.ts',
        'markdown: nothing from a hostile record or line reaches the output raw',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure: 'left to the tests cited (every character of the output read back)',
      });
    },
  },
  {
    area: 'Owner faults',
    fault:
      'An owner whose list shrinks a little at every refresh (1,000 → 600 → 360 → … → 7), or whose `select` throws an error quoting the body',
    expected:
      'The shrink guard compares with the largest set served since the last shrink it let through: every step past half of 1,000 is refused; a shrink refused three times in a row, over at least a TTL, is accepted. A `select` error is named by its type, its message never kept.',
    provedBy: [
      test(
        'packages/core/test/regression/shrink-guard-walked-down.test.ts',
        '1,000 members cannot become 7 through refreshes that each lose under half',
      ),
      test(
        'packages/core/test/regression/shrink-guard-walked-down.test.ts',
        'a shrink that persists over a TTL is accepted; a brief one is not',
      ),
      test(
        'packages/core/test/sources/http-value-set.test.ts',
        'refuses the payload as malformed when select throws, naming the error, never quoting its message',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure: 'left to the tests cited (a scripted owner on a fake clock)',
      });
    },
  },
  {
    area: 'Adversarial arguments',
    fault: 'An argument text with a 1,000,000-deep member the check does not read',
    expected:
      'The JSON reader gives its grown stack of closers back once the text is read: the process keeps at most 1,024, not the deepest nesting it ever saw.',
    provedBy: [
      test(
        'packages/core/test/regression/closer-stack-keeps-deepest-nesting.test.ts',
        'holds at most 1,024 closers after reading a 1,000,000-deep unchecked member',
      ),
    ],
    measure() {
      return Promise.resolve({ figure: 'left to the test cited' });
    },
  },
  {
    area: 'Adversarial arguments',
    fault:
      'An MCP server whose tool, argument and server names carry ESC, BEL, CR, bidi overrides or a lone surrogate',
    expected:
      'Every name from a catalog is safe text in metric and log attributes: unsafe characters shown as `?`, at most 128 characters, a 12-hex-digit SHA-256 mark for any name changed, so two different names never share a series.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/hostile-catalog-names-reach-attributes-raw.test.ts',
        'every metric and log attribute value is printable, well-formed text, whatever the catalog names',
      ),
      test(
        'packages/instrumentation/test/telemetry/safe-name.test.ts',
        'never maps two different names to one value, nor a raw name onto another’s mark',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure:
          'left to the tests cited (a hostile catalog on a scripted MCP client, every attribute of every series and record read back)',
      });
    },
  },
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck demo --otlp` given an endpoint with credentials (`http://user:secret@…/base?token=…`, or `OTEL_EXPORTER_OTLP_ENDPOINT`)',
    expected:
      'The demo shows the endpoint as its origin and path only, in its last line and in `--json`: no user name, password, query string or fragment.',
    provedBy: [
      test(
        'packages/cli/test/regression/demo-prints-otlp-credentials.test.ts',
        'prints no credential of an endpoint given by the flag, in text or --json',
      ),
      test(
        'packages/cli/test/regression/demo-prints-otlp-credentials.test.ts',
        'prints no credential of an endpoint given by the environment, in text or --json',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure:
          'left to the tests cited (the demo run against a loopback OTLP sink, text and --json, flag and environment)',
      });
    },
  },
  {
    area: 'Repair messages',
    fault:
      'Rejected guesses against a private set (10,000 active user handles), to draw its members out of repair messages',
    expected:
      "With `repairDisclosure: { set: 'none' }` a repair message names the argument, the set and its size, no member; the default (`'list'`) still lists a six-code set whole.",
    provedBy: [
      test(
        'packages/instrumentation/test/regression/reject-mode-discloses-private-sets.test.ts',
        "repairDisclosure 'none': 300 rejected guesses reveal no handle",
      ),
      test(
        'packages/core/test/checker/repair-disclosure.test.ts',
        'by default lists all six members of a six-code set',
      ),
    ],
    async measure() {
      const handles = Array.from(
        { length: 10_000 },
        (_, i) => `u${String(i * 7).padStart(6, '0')}`,
      );
      const known = new Set(handles);
      const count = async (disclosure: 'list' | 'none') => {
        const run = instrumented({
          valueSets: { handles: staticValueSet(handles) },
          checkedArguments: { assign_ticket: { assignee: 'handles' } },
          mode: 'reject',
          clock: new ManualClock(),
          repairDisclosure: { handles: disclosure },
        });
        await run.inst.ready();
        const seen = new Set<string>();
        for (let i = 0; i < 300; i++) {
          const guess = `${(handles[i * 31] as string).slice(0, -1)}x`;
          const message = run.inst.check('assign_ticket', { assignee: guess }).repairMessage ?? '';
          for (const q of message.match(/"[^"]+"/g) ?? []) {
            if (known.has(q.slice(1, -1))) seen.add(q.slice(1, -1));
          }
        }
        await run.close();
        return seen.size;
      };
      const list = await count('list');
      const none = await count('none');
      return {
        figure: `300 rejected near-miss guesses: ${list} distinct real handles named with 'list' (the default), ${none} with 'none'`,
        data: { list, none },
      };
    },
  },
  {
    area: 'Outages and recovery',
    fault: 'The first calls of a process, before anything asked for the set (reject mode)',
    expected:
      'Every configured set starts loading when the instrumentation is enabled: the first call after the load is checked (an invented value rejected), with no `ready()` or check before it.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/first-calls-of-a-process-unchecked.test.ts',
        'reject: a static set is served to the very first call, with no check or ready() before it',
      ),
      test(
        'packages/instrumentation/test/regression/first-calls-of-a-process-unchecked.test.ts',
        'reject: an owner on loopback is asked as the instrumentation is enabled, and its set checks the first call',
      ),
    ],
    async measure() {
      const run = instrumented({
        valueSets: { refunds: staticValueSet(CODES) },
        checkedArguments: CHECKED,
        mode: 'reject',
        clock: new ManualClock(),
      });
      await settle();
      let rejected = 0;
      for (let i = 0; i < 100; i++) {
        if (run.inst.check('refund_order', INVENTED).action === 'reject') rejected++;
      }
      const state = run.inst.valueSets.status()[0]?.state;
      await run.close();
      return {
        figure: `set ${state} before the first check; ${rejected} of the first 100 invented values rejected`,
        data: { state, rejected },
      };
    },
  },
  {
    area: 'TTL changes',
    fault:
      '`setConfig` with the same sets (a new `ttlMs`, or observe → reject during an owner outage)',
    expected:
      'A set whose source did not change keeps its members, age and state: no `cold` gap, a set served stale stays served stale; its next refresh is due as the new TTL says.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/set-config-discards-served-sets.test.ts',
        'reject: the same sets under a new ttlMs reject an invented value at once',
      ),
      test(
        'packages/instrumentation/test/regression/set-config-discards-served-sets.test.ts',
        'observe -> reject during an owner outage: the set is served stale and the invented value rejected',
      ),
      test(
        'packages/core/test/provider/replaces.test.ts',
        'a set from the same source keeps its members, age and state under a new TTL',
      ),
    ],
    async measure() {
      const clock = new ManualClock();
      let down = false;
      const source = functionValueSet(() =>
        down ? Promise.reject(new Error('owner down')) : [...CODES],
      );
      const config = { valueSets: { refunds: source }, checkedArguments: CHECKED, clock };
      const run = instrumented(config);
      await run.inst.ready();
      down = true;
      await clock.tick(10 * MIN);
      run.inst.setConfig({ ...config, mode: 'reject' });
      let rejected = 0;
      for (let i = 0; i < 100; i++) {
        if (run.inst.check('refund_order', INVENTED).action === 'reject') rejected++;
      }
      const status = run.inst.valueSets.status()[0];
      await run.close();
      return {
        figure: `owner down 10 min, then observe → reject: set ${status?.state} (${status?.size} members, ${status?.ageSeconds} s old); ${rejected} of 100 invented values rejected`,
        data: { state: status?.state, rejected },
      };
    },
  },
  {
    area: 'Telemetry faults',
    fault: '`ARGCHECK_CAPTURE_VALUES` set to `0`, `off`, `no` or a misspelling',
    expected:
      'Value capture is off for any setting but `true`, `1`, `yes`, `on` or empty: the kill switch fails closed.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/capture-kill-switch-only-understands-false.test.ts',
        '"off" turns value capture off',
      ),
    ],
    async measure() {
      const settings = ['false', '0', 'off', 'no', 'disabled', 'flase'];
      const before = process.env.ARGCHECK_CAPTURE_VALUES;
      const off: string[] = [];
      try {
        for (const setting of settings) {
          process.env.ARGCHECK_CAPTURE_VALUES = setting;
          const exporter = new InMemoryLogRecordExporter();
          const loggerProvider = new LoggerProvider({
            processors: [new SimpleLogRecordProcessor({ exporter })],
          });
          const inst = new ToolArgumentInstrumentation({
            valueSets: { refunds: staticValueSet(CODES) },
            checkedArguments: CHECKED,
            logSampleRatio: 1,
            clock: new ManualClock(),
            mcp: { enabled: false },
            frameworks: { enabled: false },
          });
          inst.setLoggerProvider(loggerProvider);
          await inst.ready();
          inst.check('refund_order', INVENTED);
          const records = exporter.getFinishedLogRecords();
          const valued = records.some((r) =>
            Object.values(r.attributes).includes(INVENTED.reason_code),
          );
          if (records.length > 0 && !valued) off.push(setting);
          inst.disable();
          inst.close();
          await loggerProvider.shutdown();
        }
      } finally {
        if (before === undefined) delete process.env.ARGCHECK_CAPTURE_VALUES;
        else process.env.ARGCHECK_CAPTURE_VALUES = before;
      }
      return {
        figure: `${off.length} of ${settings.length} settings (${settings.join(', ')}): records without the emitted value`,
        data: { off },
      };
    },
  },
  {
    area: 'Pipeline and fleet',
    fault:
      'A healthy pipeline: MCP-derived sets listed once and checked for hours, unreadable JSON arguments now and then',
    expected:
      'No `ToolArgumentValueSetStale` (derived sets are `source="tool_schema"`, renewed every TTL from the listing held) and no `ToolArgumentCheckUnavailable` (`reason="unreadable"` is the model’s, with its own ratio `tool_argument:unreadable:ratio_rate1h`); an owner that stops answering still fires both.',
    provedBy: [
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'an MCP-derived set listed once and checked for three hours raises no ToolArgumentValueSetStale',
      ),
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'unreadable arguments against a healthy owner raise no ToolArgumentCheckUnavailable',
      ),
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'an owner that stops answering still raises ToolArgumentValueSetStale, then ToolArgumentCheckUnavailable',
      ),
    ],
    measure() {
      return Promise.resolve({
        figure:
          'promtool over three hours of exported series, sampled each minute (left to the test cited): healthy, no alert; owner down from minute 10, stale firing at 55, unavailable at 100',
      });
    },
  },
];
