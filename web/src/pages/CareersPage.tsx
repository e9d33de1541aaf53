import { CareersHero } from "../careers/CareersHero";
import { GeneralApplication } from "../careers/GeneralApplication";
import { OpenPositions } from "../careers/OpenPositions";
import { POSITIONS } from "../careers/positions";
import { WhyJoin } from "../careers/WhyJoin";
import { Page } from "../layout/Page";

export default function CareersPage() {
  return (
    <Page title="Careers">
      <CareersHero openPositions={POSITIONS.length} />
      <OpenPositions positions={POSITIONS} />
      <WhyJoin />
      <GeneralApplication />
    </Page>
  );
}
