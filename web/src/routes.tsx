import { lazy, type ComponentType } from "react";
import type { RouteObject } from "react-router";
import { SiteLayout } from "./layout/SiteLayout";

/** Each page is its own chunk, loaded when first visited. */
const page = (load: () => Promise<{ default: ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};

/** The specification's route table (section 2). */
export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    children: [
      { index: true, element: page(() => import("./pages/LandingPage")) },
      { path: "privacy", element: page(() => import("./pages/PrivacyPage")) },
      { path: "terms", element: page(() => import("./pages/TermsPage")) },
      { path: "auth/callback", element: page(() => import("./pages/AuthCallbackPage")) },
      { path: "console", element: page(() => import("./pages/ConsolePage")) },
      { path: "playground", element: page(() => import("./pages/PlaygroundPage")) },
      { path: "developers", element: page(() => import("./pages/DevelopersPage")) },
      { path: "sd-api", element: page(() => import("./pages/SdApiPage")) },
      { path: "careers", element: page(() => import("./pages/CareersPage")) },
      { path: "apply-job", element: page(() => import("./pages/ApplyJobPage")) },
      { path: "dashboard", element: page(() => import("./pages/DashboardPage")) },
      { path: "decision/:id", element: page(() => import("./pages/DecisionPage")) },
      { path: "admin", element: page(() => import("./pages/AdminPage")) },
      { path: "settings", element: page(() => import("./pages/SettingsPage")) },
      { path: "contact", element: page(() => import("./pages/ContactPage")) },
      { path: "*", element: page(() => import("./pages/NotFoundPage")) },
    ],
  },
];
