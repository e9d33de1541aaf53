import { runOnBothDrivers } from "../testing/both-drivers";
import { describeDecisionRepositoryContract } from "./repository.contract";

await runOnBothDrivers("DecisionRepository", describeDecisionRepositoryContract);
