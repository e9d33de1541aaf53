import { CONTACT, mailto } from "../content/contact";
import { LegalLink, LegalList, LegalPage, LegalSection } from "../site/legal";

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      related={{ to: "/terms", label: "Terms of Service" }}
      intro={
        <p>
          Smart Decision ("we", "us") asks several AI language models the same question and combines their votes into one
          decision. This policy explains what we collect when you use our website, playground, console and API, why we
          collect it, who we share it with and the choices you have.
        </p>
      }
    >
      <LegalSection title="1. What we collect">
        <LegalList>
          <li>
            <strong>Your questions.</strong> The question, the answer categories and any images you attach to a decision,
            along with the result: each model's vote, confidence and reason, the final decision, the model versions that
            answered and the processing time.
          </li>
          <li>
            <strong>Account details.</strong> When you sign in: your email address and, if you sign in with Google, your name
            and profile picture. We never see your Google password.
          </li>
          <li>
            <strong>API keys.</strong> The keys you create, their names and workspaces, when they were created and last used,
            and the usage made with them.
          </li>
          <li>
            <strong>Waitlist.</strong> The email address you give us to join the waitlist.
          </li>
          <li>
            <strong>Job applications.</strong> Your name, email address, phone number, LinkedIn profile, the accomplishment you
            describe and the resume you upload.
          </li>
          <li>
            <strong>Technical data.</strong> Your IP address, request times and error logs, which we use to run the service,
            limit abuse and measure reliability.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="2. How we use it">
        <LegalList>
          <li>To answer your questions: sending them to the AI models and combining their votes.</li>
          <li>To keep a decision history for signed-in users, so you can come back to earlier decisions.</li>
          <li>To authenticate you and the API keys you use, and to protect the service against abuse.</li>
          <li>To contact you about the waitlist or about your job application.</li>
          <li>To monitor, fix and improve the service, using aggregated usage and error statistics.</li>
        </LegalList>
        <p>We do not sell your data and we do not use it for advertising.</p>
      </LegalSection>

      <LegalSection title="3. AI model providers">
        <p>
          To produce a decision, your question, its answer categories and any attached images are sent to third-party AI
          model vendors, currently OpenAI, Google and Anthropic, and to any other model provider named on our{" "}
          <LegalLink href="/sd-api">API page</LegalLink> that takes part in your decision. Each vendor processes this content
          under its own API terms and privacy policy to return its answer. Please do not include information in a question
          or image that you are not allowed to share with these vendors, such as other people's sensitive personal data.
        </p>
      </LegalSection>

      <LegalSection title="4. Decision history and images">
        <p>
          If you use the playground without signing in, your decision is recorded with your IP address so we can run and
          protect the service, and the images you attach are not kept as stored assets. If you are signed in, your decisions
          are saved to your decision history together with the images you attached, so you can see them on your dashboard
          and decision pages. Only you, and the people you authorise through role-based access in an enterprise workspace,
          can see your history.
        </p>
      </LegalSection>

      <LegalSection title="5. How long we keep it">
        <LegalList>
          <li>
            Data you opt in to keeping, such as a signed-in account's decision history and stored images, is kept for up to
            five years, unless you delete it sooner.
          </li>
          <li>If you opt out, the data concerned is deleted within 30 days.</li>
          <li>
            Waitlist entries are kept until you get access or ask us to remove you; job applications are kept for as long as
            the hiring process needs them.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="6. Security and access">
        <p>
          Data travels encrypted between your browser and our servers. API keys are shown masked until you choose to reveal
          them, and you can deactivate or delete a key at any time. Inside our team, only the people who need it to run the
          service can reach your data. Enterprise customers control who in their organisation can see decisions and manage
          keys through role-based access.
        </p>
      </LegalSection>

      <LegalSection title="7. Storage on your device">
        <p>
          When you sign in, your browser keeps your session (your user details and sign-in token) in its local storage, and
          briefly keeps a security value in session storage while you sign in with Google. We use no advertising or
          third-party tracking cookies.
        </p>
      </LegalSection>

      <LegalSection title="8. Your choices and rights">
        <p>
          You can ask us for a copy of your data, to correct it, to delete it, or to opt out of keeping your decision
          history. Depending on where you live, you may also have the right to object to or restrict some processing and to
          complain to your data protection authority. Write to{" "}
          <LegalLink href={mailto(CONTACT.support, "Privacy request")}>{CONTACT.support}</LegalLink> and we will answer
          within 30 days.
        </p>
      </LegalSection>

      <LegalSection title="9. Children">
        <p>Smart Decision is not meant for children under 16, and we do not knowingly collect their data.</p>
      </LegalSection>

      <LegalSection title="10. Changes to this policy">
        <p>
          We may update this policy as the product changes. We will change the effective date above and, for important
          changes, tell signed-in users by email before the changes apply.
        </p>
      </LegalSection>

      <LegalSection title="11. Contact">
        <p>
          Questions about privacy? Email <LegalLink href={mailto(CONTACT.support, "Privacy question")}>{CONTACT.support}</LegalLink>{" "}
          or <LegalLink href={mailto(CONTACT.general)}>{CONTACT.general}</LegalLink>.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
