import { describeContract } from './contract-suite.js';
import { NODE22_SUBJECTS } from './subjects-node22.js';

describeContract('the integration contract — frameworks that need Node 22', NODE22_SUBJECTS);
