/** A job position: static content of the careers page. */
export interface JobPosition {
  id: string;
  title: string;
  location: string;
  type: string;
  department: string;
  experience: string;
  description: string;
  responsibilities: readonly string[];
  requirements: readonly string[];
  benefits: readonly string[];
}

export const OFFICE_LOCATION = "Mountain View, CA";
export const EMPLOYMENT_TYPE = "Full-time";

export const POSITIONS: readonly JobPosition[] = [
  {
    id: "product-operations-manager",
    title: "Product and Operations Manager",
    location: OFFICE_LOCATION,
    type: EMPLOYMENT_TYPE,
    department: "Product & Operations",
    experience: "3-5 years",
    description:
      "Own the roadmap of our playground and decision API, and run the operations that keep every model's vote fast, reliable and affordable as we scale.",
    responsibilities: [
      "Own the roadmap for the playground, console and decision API, from discovery to launch",
      "Turn feedback from developers and enterprise customers into clear specs with measurable outcomes",
      "Run the weekly operating review: usage, model error rates, latency and cost per decision",
      "Manage model-vendor relationships, quotas and pricing changes with engineering and finance",
      "Set up launch, support and incident-communication processes as the customer base grows",
    ],
    requirements: [
      "3-5 years in product management or business operations at a SaaS or developer-tools company",
      "Comfort with data: you write SQL and build the dashboards that answer your own questions",
      "Working knowledge of large language models: their strengths, failure modes and costs",
      "Clear writing: specs, updates and decision memos that people actually read",
      "Experience serving both self-serve developers and enterprise buyers is a plus",
    ],
    benefits: [
      "Competitive salary and meaningful early-stage equity",
      "Medical, dental and vision coverage for you and your dependents",
      "A monthly model-credit budget to experiment with every major LLM",
      "Flexible hours, with collaborative in-office days in Mountain View",
      "Annual learning budget for courses, books and conferences",
    ],
  },
  {
    id: "account-executives",
    title: "Account Executives",
    location: OFFICE_LOCATION,
    type: EMPLOYMENT_TYPE,
    department: "Sales",
    experience: "2-4 years",
    description:
      "Help engineering and operations leaders adopt ensemble AI decisions in their products and workflows, from the first demo to a signed contract.",
    responsibilities: [
      "Run the full sales cycle for mid-market and enterprise accounts, from discovery to close",
      "Demo multi-model voting on each prospect's own decision workflows",
      "Build pipeline from outbound, developer-community events and inbound API sign-ups",
      "Work with solutions engineers on security reviews, pilots and usage-based pricing",
      "Keep forecasts accurate in the CRM and bring what you hear in the field back to product",
    ],
    requirements: [
      "2-4 years of closing experience in B2B SaaS, ideally selling APIs or developer platforms",
      "A record of meeting or beating quota on deals with technical buyers",
      "The ability to explain model disagreement, confidence and voting in plain language",
      "Organized and persistent, at ease with consultative sales to several stakeholders",
      "Willingness to travel now and then to customer sites and industry events",
    ],
    benefits: [
      "Competitive base salary with an uncapped commission plan",
      "Meaningful early-stage equity",
      "Medical, dental and vision coverage for you and your dependents",
      "Flexible paid time off and paid parental leave",
      "A yearly trip for the team's top performers",
    ],
  },
  {
    id: "software-engineers",
    title: "Software Engineers",
    location: OFFICE_LOCATION,
    type: EMPLOYMENT_TYPE,
    department: "Engineering",
    experience: "2-6 years",
    description:
      "Build the platform that asks several AI models one question and turns their votes into a decision people can trust, live and at scale.",
    responsibilities: [
      "Design and ship features across our TypeScript stack: React app, Express gateway and queue workers",
      "Integrate new model vendors with structured outputs, retries and graceful failure handling",
      "Improve the vote pipeline's latency, throughput and observability on Redis and BullMQ",
      "Build ensemble modes beyond majority voting, such as weighted votes and judge models",
      "Write tests against real services, review code and share on-call duty",
    ],
    requirements: [
      "2-6 years of professional software engineering experience",
      "Strong TypeScript (or another typed language) and a solid grasp of web APIs",
      "Experience with distributed systems: queues, caching, idempotency and backpressure",
      "Hands-on work with LLM APIs, prompt design or model evaluation is a strong plus",
      "Care for product quality, accessibility and thoughtful code review",
    ],
    benefits: [
      "Competitive salary and meaningful early-stage equity",
      "Medical, dental and vision coverage for you and your dependents",
      "A top-of-the-line laptop and a monthly model-credit budget",
      "Conference and learning budget",
      "Flexible hours, with collaborative in-office days in Mountain View",
    ],
  },
];

/** The application page for one position: /apply-job?position=<title>&department=<department>. */
export function applyJobHref(position: Pick<JobPosition, "title" | "department">): string {
  return `/apply-job?${new URLSearchParams({ position: position.title, department: position.department }).toString()}`;
}

/** What the application page shows when its query names no position or department. */
export const DEFAULT_TARGET = { position: "Position", department: "Department" } as const;

/** The position and department an application is for, from the page's query. */
export function applicationTarget(query: URLSearchParams): { position: string; department: string } {
  return {
    position: query.get("position")?.trim() || DEFAULT_TARGET.position,
    department: query.get("department")?.trim() || DEFAULT_TARGET.department,
  };
}
