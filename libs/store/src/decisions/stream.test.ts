import { runOnBothDrivers } from "../testing/both-drivers";
import { describeDecisionStreamContract } from "./stream.contract";

await runOnBothDrivers("DecisionRepository.stream", describeDecisionStreamContract);
