import { describeContract } from './contract-suite.js';
import { SUBJECTS } from './subjects.js';

describeContract('the integration contract', SUBJECTS);
