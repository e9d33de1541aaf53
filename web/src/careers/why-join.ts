import { BrainCircuit, Rocket, TrendingUp, type LucideIcon } from "lucide-react";

export interface CompanyValue {
  title: string;
  description: string;
  icon: LucideIcon;
}

/** The careers page's 'Why Join' value cards. */
export const WHY_JOIN: readonly CompanyValue[] = [
  {
    title: "Work at the frontier of AI",
    description: "Combine models from OpenAI, Google, Anthropic and more into decisions no single model could make alone.",
    icon: BrainCircuit,
  },
  {
    title: "Ship with real impact",
    description: "A small team with real customers: what you build this week helps people decide with confidence next week.",
    icon: Rocket,
  },
  {
    title: "Grow with the company",
    description: "Early ownership, equity and a learning budget, with room to shape the team, the product and how we work.",
    icon: TrendingUp,
  },
];
