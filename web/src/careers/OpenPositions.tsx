import { useState } from "react";
import { PositionCard } from "./PositionCard";
import type { JobPosition } from "./positions";

/** The position cards; opening one closes the one open before. */
export function OpenPositions({ positions }: { positions: readonly JobPosition[] }) {
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <section aria-labelledby="open-positions-title" className="mt-14">
      <h2 id="open-positions-title" className="text-2xl font-bold text-slate-900">
        Open Positions
      </h2>
      <p className="mt-2 text-slate-600">Select a role to see what you would do, what we look for and what we offer.</p>
      <div className="mt-6 space-y-4">
        {positions.map((position) => (
          <PositionCard
            key={position.id}
            position={position}
            expanded={openId === position.id}
            onToggle={() => setOpenId((current) => (current === position.id ? null : position.id))}
          />
        ))}
      </div>
    </section>
  );
}
