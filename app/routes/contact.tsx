import { Clock, Mail, Rocket, Send } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { FaqList } from "#app/components/faq-list.tsx";
import { PageHeader, SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { contactMessageSchema, sendContactMessage, type ContactField } from "#app/domain/contact.server.ts";
import { RateLimitedError } from "#app/domain/errors.server.ts";
import { CREDITS_PER_MESSAGE, STARTER_CREDITS } from "#app/lib/constants.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/contact";

/** docs/spec.md §5's alert, verbatim. */
const CONTACT_THANK_YOU = "Thank you for your message! We'll get back to you soon.";

const FIELDS = ["name", "email", "subject", "message"] as const satisfies readonly ContactField[];
type Values = Record<ContactField, string>;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = Object.fromEntries(
    FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === "string" ? value : ""];
    }),
  ) as Values;
  const parsed = contactMessageSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Values> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ContactField;
      errors[field] ??= issue.message;
    }
    return data({ sent: false, errors, formError: null, values }, { status: 400 });
  }
  const user = await getSessionUser(request);
  try {
    await sendContactMessage(parsed.data, { userId: user?.id, clientAddress: context.get(requestContext).clientAddress });
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return data(
      { sent: false, errors: {}, formError: error.message, values },
      { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } },
    );
  }
  return { sent: true, errors: {}, formError: null, values: null };
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(actionHeaders);
  for (const [name, value] of Object.entries(cacheForVisitors())) headers.set(name, value);
  return headers;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: "Contact Us",
    description: `Questions, ideas or problems with ${site.name}? Send us a message or email ${site.supportEmail}. We reply typically within 24 hours.`,
    path: "/contact",
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "Contact", path: "/contact" },
      ]),
    ],
  });
};

const FAQ = [
  {
    question: "How many free credits do I get?",
    answer: `Every new account receives ${STARTER_CREDITS} free credits. Each message you send to the Game Master costs ${CREDITS_PER_MESSAGE} credit, and you can buy more credits at any time.`,
  },
  {
    question: "Do my credits expire?",
    answer: "No. Credits never expire and are added to your balance the moment a purchase completes. Purchased credits are not refundable.",
  },
  {
    question: "Can I suggest a new game or setting?",
    answer:
      "Please do. Our goal is 20+ games within a year, and many of the worlds on our list started as player suggestions. Tell us the role you want to play and what would make it exciting.",
  },
  {
    question: "I found a bug or a reply that seems wrong. What should I do?",
    answer:
      "Send us the game's name, roughly what you wrote and what happened. If the Game Master said something offensive or harmful, please tell us too; we review every report.",
  },
] as const;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-danger">
      {message}
    </p>
  );
}

export default function Contact({ actionData }: Route.ComponentProps) {
  const { site, viewer } = useRootData();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/contact";
  const formRef = useRef<HTMLFormElement>(null);
  const errors: Partial<Values> = actionData?.errors ?? {};
  const values = actionData?.values;

  useEffect(() => {
    if (actionData?.sent) formRef.current?.reset();
  }, [actionData]);

  const field = (name: ContactField) => ({
    id: `contact-${name}`,
    name,
    required: true,
    defaultValue: values?.[name] ?? (name === "email" ? viewer?.email : undefined),
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `contact-${name}-error` : undefined,
  });

  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="We'd love to hear from you"
        description="Questions about your account or credits, ideas for new worlds, or a story that went somewhere strange — write to us and a real person will answer."
      />

      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="form-heading" className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 sm:p-8">
          <h2 id="form-heading" className="text-3xl text-parchment">
            Send a Message
          </h2>
          {actionData?.sent ? (
            <p role="alert" className="mt-5 rounded-lg border border-beginner/60 bg-beginner/10 px-4 py-3 text-parchment">
              {CONTACT_THANK_YOU}
            </p>
          ) : null}
          {actionData?.formError ? (
            <p role="alert" className="mt-5 rounded-lg border border-danger/60 bg-danger/10 px-4 py-3 text-parchment">
              {actionData.formError}
            </p>
          ) : null}
          <Form ref={formRef} method="post" className="mt-6 grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="contact-name">Name</Label>
                <Input {...field("name")} autoComplete="name" maxLength={100} />
                <FieldError id="contact-name-error" message={errors.name} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="contact-email">Email</Label>
                <Input {...field("email")} type="email" autoComplete="email" maxLength={254} />
                <FieldError id="contact-email-error" message={errors.email} />
              </div>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="contact-subject">Subject</Label>
              <Input {...field("subject")} maxLength={200} />
              <FieldError id="contact-subject-error" message={errors.subject} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="contact-message">Message</Label>
              <Textarea {...field("message")} rows={6} maxLength={5000} />
              <FieldError id="contact-message-error" message={errors.message} />
            </div>
            <div>
              <Button type="submit" size="lg" disabled={sending}>
                <Send aria-hidden />
                {sending ? "Sending..." : "Send Message"}
              </Button>
            </div>
          </Form>
        </section>

        <aside className="space-y-6">
          <div className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6">
            <Mail className="size-6 text-gold" strokeWidth={1.75} aria-hidden />
            <h2 className="mt-3 text-2xl text-parchment">Email Support</h2>
            <a href={`mailto:${site.supportEmail}`} className="mt-2 block break-all text-gold underline-offset-4 hover:underline">
              {site.supportEmail}
            </a>
            <p className="mt-3 flex items-start gap-2 text-sm text-parchment-dim">
              <Clock className="mt-0.5 size-4 shrink-0" strokeWidth={1.75} aria-hidden />
              We reply typically within 24 hours.
            </p>
          </div>
          <div className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6">
            <Rocket className="size-6 text-gold" strokeWidth={1.75} aria-hidden />
            <h2 className="mt-3 text-2xl text-parchment">What's Next</h2>
            <p className="mt-2 text-sm text-parchment-dim">
              We are writing new worlds all the time: our goal is 20+ games within a year. Your suggestions help decide which come first.
            </p>
          </div>
        </aside>
      </div>

      <section aria-labelledby="contact-faq-heading" className="border-t border-ink-line bg-ink-raised/30">
        <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
          <SectionHeading id="contact-faq-heading" title="Frequently Asked Questions" />
          <FaqList items={FAQ} className="bg-ink" />
        </div>
      </section>
    </>
  );
}
