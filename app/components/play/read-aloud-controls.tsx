import { Square, Volume2 } from "lucide-react";
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "#app/components/ui/dialog.tsx";
import { fieldClassName } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import {
  canReadAloud,
  changeReadAloudSettings,
  READING_SPEEDS,
  readAloud,
  readAloudSettings,
  stopReading,
  useReadAloudSettings,
  useReading,
} from "./read-aloud.ts";
import { ReplyIcon } from "./reply-icons.tsx";
import { useStory } from "./story-provider.tsx";
import { latestReply } from "./story-selectors.ts";
import type { CallKind } from "./story-state.ts";

/** Calls that bring a new reply to read: not Undo, nor a switch to another version. */
const WRITES_A_REPLY: readonly CallKind[] = ["send", "edit", "retry", "continue"];

/**
 * Reading follows the story: a new turn (or any call) stops it, as does leaving the screen; with
 * Auto-read on, a reply this tab asked for is read once it is stored.
 */
export function useReadAloudFollowsStory() {
  const { state } = useStory();
  const call = state.call ? { id: state.call.id, kind: state.call.kind } : null;
  const previous = useRef(call);
  const reply = latestReply(state);
  // Leaving the play screen (for My Stories, say) ends the reading too.
  useEffect(() => stopReading, []);
  useEffect(() => {
    const before = previous.current;
    previous.current = call;
    if (call && call.id !== before?.id) stopReading();
    else if (!call && before && WRITES_A_REPLY.includes(before.kind) && reply?.status === "complete" && readAloudSettings().autoRead) {
      readAloud(reply.key, reply.content);
    }
  });
}

const unchanging = () => () => undefined;

/**
 * A reply's Read aloud (Stop reading while it is read). Drawn on the server too, so nothing moves
 * when the page becomes React's; closed where the browser has no speech synthesis.
 */
export function ReadAloudButton({ messageKey, content }: { messageKey: string; content: string }) {
  const reading = useReading() === messageKey;
  // Known only in the browser: the server's page (and the hydrating render) draw it closed.
  const available = useSyncExternalStore(unchanging, canReadAloud, () => false);
  return (
    <button
      type="button"
      disabled={!available}
      title={available ? undefined : "This browser cannot read aloud."}
      onClick={() => (reading ? stopReading() : readAloud(messageKey, content))}
      aria-pressed={reading}
      className="inline-flex min-h-8 items-center gap-1 rounded-full px-2 text-xs font-medium text-parchment-dim transition-colors hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold disabled:opacity-50 aria-pressed:text-gold [&_svg]:size-3.5"
    >
      {reading ? <Square aria-hidden /> : <ReplyIcon name="read-aloud" />}
      {reading ? "Stop reading" : "Read aloud"}
    </button>
  );
}

function useVoices(open: boolean): SpeechSynthesisVoice[] {
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>([]);
  useEffect(() => {
    if (!open || !canReadAloud()) return;
    const list = () => setVoices(window.speechSynthesis.getVoices());
    list();
    // Chromium lists its voices a moment after the page asks for them.
    window.speechSynthesis.addEventListener("voiceschanged", list);
    return () => window.speechSynthesis.removeEventListener("voiceschanged", list);
  }, [open]);
  return voices;
}

/** Read-aloud settings: the voice, the speed and Auto-read, remembered in this browser. */
export function ReadAloudSettingsDialog() {
  const [open, setOpen] = useState(false);
  const settings = useReadAloudSettings();
  const voices = useVoices(open);
  const id = useId();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="ghost" size="sm" className="px-2.5">
          <Volume2 aria-hidden />
          Read aloud<span className="sr-only"> settings</span>
          {settings.autoRead ? (
            <span aria-hidden className="rounded-full bg-gold/15 px-1.5 text-[10px] font-semibold tracking-wide text-gold uppercase">
              Auto
            </span>
          ) : null}
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogTitle>Read aloud</DialogTitle>
        <DialogDescription>
          Replies are read by your browser&apos;s own voices; nothing is sent anywhere. Remembered on this device.
        </DialogDescription>
        {canReadAloud() ? null : (
          <p role="alert" className="mt-3 text-sm text-danger">
            This browser cannot read aloud.
          </p>
        )}
        <div className="mt-4 flex flex-col gap-4">
          <div className="flex items-start gap-3 rounded-lg border border-ink-line bg-ink/60 px-3.5 py-3">
            <Switch
              id={`${id}-auto`}
              checked={settings.autoRead}
              onCheckedChange={(autoRead) => changeReadAloudSettings({ autoRead })}
              aria-describedby={`${id}-auto-hint`}
            />
            <div>
              <Label htmlFor={`${id}-auto`}>Auto-read</Label>
              <p id={`${id}-auto-hint`} className="text-xs text-parchment-dim">
                Read each new reply as soon as it has arrived.
              </p>
            </div>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-voice`}>Voice</Label>
            <select
              id={`${id}-voice`}
              className={fieldClassName}
              value={settings.voice}
              onChange={(event) => changeReadAloudSettings({ voice: event.target.value })}
            >
              <option value="">The browser&apos;s default voice</option>
              {voices.map((voice) => (
                <option key={voice.voiceURI} value={voice.voiceURI}>
                  {voice.name} ({voice.lang})
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-speed`}>Speed</Label>
            <select
              id={`${id}-speed`}
              className={fieldClassName}
              value={String(settings.rate)}
              onChange={(event) => changeReadAloudSettings({ rate: Number(event.target.value) })}
            >
              {READING_SPEEDS.map((speed) => (
                <option key={speed} value={String(speed)}>
                  {speed === 1 ? "Normal" : `${speed}×`}
                </option>
              ))}
            </select>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
