export { startEmulator, emulatorBaseUrl, CONTROL_TOKEN_HEADER, type Emulator, type EmulatorCall, type EmulatorOptions } from "./server";
export {
  EmulatorRuleSchema,
  EmulatorRulesSchema,
  EmulatorVendorSchema,
  EmulatorUsageSchema,
  type EmulatorUsage,
  type EmulatorRule,
  type EmulatorResponse,
  type EmulatorVendor,
} from "./rules";
export { generateFromSchema, seededRng, simulatedRationale, SIMULATED_RATIONALE, type AnswerOverrides } from "./schema-walker";
export { LAB_CONFIDENCE, LAB_DESCRIPTION, LabConfigSchema, type LabConfig, type LabModel, type LabState } from "./lab";
export { EmulatorLabClient, labelledQuestion } from "./lab-client";
