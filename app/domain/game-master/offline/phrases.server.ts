/**
 * What the offline storyteller says around the world's own sentences: the phrases that frame a
 * paragraph, the lines people speak, the choices it offers. Data only; narrator.server.ts
 * decides which to use.
 *
 * A paragraph is framed by an opener and a closer, and the pair is picked by the story's turn, so
 * the same framing of the same content comes back only after openers × closers turns. Every frame
 * has 8 openers and 7 closers: 56 turns, more than the 50 a story must go without repeating a
 * paragraph (a test holds every frame to that).
 */

export const ANSWER_OPENERS = [
  "{Who} answers without hesitation.",
  "{Who} takes a moment before replying, as if deciding how much to say.",
  "{Who} glances toward the door before answering.",
  "It is {who} who answers, quietly.",
  "{Who} seems almost relieved to be asked.",
  "{Who} answers as though the question had been expected for some time.",
  "{Who} waits until no one else is close enough to hear.",
  "{Who} gives the question the seriousness it deserves.",
];

export const ANSWER_CLOSERS = [
  "That much everyone knows. The rest is spoken more quietly.",
  "Make of that what you will.",
  "I would not repeat it where it could be overheard.",
  "Whether that helps you depends on what you do next.",
  "It has cost others more than a question to learn it.",
  "If you want more, you will have to see for yourself.",
  "That is all I know, or all I am willing to say today.",
];

export const UNKNOWN_OPENERS = [
  "{Who} hesitates. “{Subject}{, you}? I cannot tell you much, and I would rather not guess.”",
  "“{Subject}?” {Who} repeats, frowning. “Not something I know enough about to be useful{, you}.”",
  "{Who} is slow to answer. “{Subject}{, you}? You have found the edge of what I know.”",
  "“I wish I could answer that{, you},” {who} says, and seems to mean it.",
  "{Who} is quiet for a long moment. “{Subject}. No one has told me, and I have not dared to ask.”",
  "“{Subject}?” {Who} glances away. “There are people who would know. I am not one of them{, you}.”",
  "“That is a question for someone braver than me{, you},” {who} admits.",
  "{Who} spreads empty hands. “{Subject}{, you}? Rumours, nothing I would stake your safety on.”",
];

export const UNKNOWN_CLOSERS = [
  "“If anyone knows, it is {other}.”",
  "“Ask {other}. Carefully.”",
  "“{Other} might tell you, if you ask the right way.”",
  "“I would start with {other}, and I would not say who sent you.”",
  "“{Other} has been asking the same thing, I hear.”",
  "“Whatever the truth is, {other} will want to know you are looking.”",
  "“{Other} knows more than anyone here admits.”",
];

export const NOBODY_OPENERS = [
  "You look for someone who can tell you about {subject}, and find no one.",
  "Nobody here has an answer about {subject}, or nobody is willing to give one.",
  "The question about {subject} meets only silence.",
  "You turn the question of {subject} over and find you know less than you hoped.",
  "Whatever there is to know about {subject}, it is not to be learned here, not yet.",
  "About {subject}, there is only rumour, and rumour contradicts itself.",
  "You listen for any word of {subject}. There is none worth repeating.",
  "Of {subject}, no one speaks, and the not-speaking is its own kind of answer.",
];

export const NOBODY_CLOSERS = [
  "You will have to find out for yourself.",
  "Perhaps someone elsewhere knows more.",
  "It will keep, for now.",
  "The answer, when it comes, may not be welcome.",
  "You make a note to ask again, somewhere else.",
  "For the moment, it remains a question.",
  "Sooner or later, someone will let it slip.",
];

export const RECALL_OPENERS = [
  "You know more about {subject} than most would guess.",
  "You turn the question over, and what you know of {subject} comes back to you.",
  "You have heard enough about {subject} to know where to begin.",
  "What you know of {subject} is this.",
  "Memory answers before anyone else can.",
  "You do not need to ask anyone; you have listened carefully since the first day.",
  "It takes only a moment to gather what you know of {subject}.",
  "The name alone is enough to bring it back.",
];

export const RECALL_CLOSERS = [
  "It may matter sooner than you think.",
  "Someone, somewhere, is counting on you not to remember it.",
  "Knowing it changes nothing yet. It may change everything later.",
  "It is the kind of knowledge that is worth more unspoken.",
  "You file it away with everything else you are not supposed to know.",
  "Whoever forgets such things here does not last long.",
  "It is not much, but it is more than you knew yesterday.",
];

export const ADVICE_OPENERS = [
  "{Who} considers the question with care. “{You, }if I were you, I would look to {challenge} first.”",
  "“You want my advice{, you}?” {Who} does not smile. “Then do not let {challenge} wait.”",
  "{Who} answers at once. “{Challenge}{, you}. Everything else can be survived for a few more days.”",
  "“Honestly{, you}?” {Who} looks down. “{Challenge}. Before it decides for you.”",
  "{Who} takes a breath. “Start with {challenge}{, you}. It will not start with you politely.”",
  "“I would think about {challenge}{, you},” {who} says. “Others certainly are.”",
  "{Who} glances toward the door. “{Challenge}{, you}. That is where the danger is.”",
  "“The question is not what you should do{, you},” says {who}. “It is what {challenge} will do if you do nothing.”",
];

export const TALK_OPENERS = [
  "{Who} comes without delay and waits for you to speak first.",
  "{Who} is already within earshot, and does not pretend otherwise.",
  "{Who} arrives a little late, with an apology that costs nothing.",
  "{Who} hears you out without interrupting, which is itself a kind of answer.",
  "{Who} meets your eyes for a long moment before replying.",
  "{Who} listens with the stillness of someone used to weighing every word.",
  "{Who} answers readily enough, though the smile arrives a beat too late.",
  "{Who} seems to have expected this conversation, and to have rehearsed a part of it.",
];

export const LINES: Record<"kind" | "harsh" | "neutral", readonly string[]> = {
  neutral: [
    "“You sent for me{, you}, so I came. Ask what you need to ask.”",
    "“I had wondered how long it would take before we spoke{, you}.”",
    "“There is talk already{, you}. I thought you should hear it from someone who does not enjoy it.”",
    "“Ask me plainly{, you}. I will answer as plainly as I can afford to.”",
    "“Everyone in this place wants something from you{, you}. I at least will tell you what.”",
    "“I will help you{, you}, if you tell me what it will cost me.”",
    "“Not here{, you}. Later, somewhere quieter, and I will tell you more.”",
  ],
  kind: [
    "“That is kind{, you}. Kindness is remembered here, longer than most things.”",
    "“I did not expect generosity{, you}. I will not forget it.”",
    "“You make it difficult to be cautious around you{, you}.”",
    "“If that is how you mean to go on{, you}, you will have friends you did not plan for.”",
    "“Thank you{, you}. I will find a way to repay it, whether you ask me to or not.”",
    "“Few people bother{, you}. It will be noticed, and mostly for the better.”",
    "“Then I owe you one{, you}. Debts are the only coin nobody counterfeits.”",
  ],
  harsh: [
    "“Careful{, you}. Some doors, once kicked open, do not close again.”",
    "“As you wish{, you}. But people remember who pushed, and how hard.”",
    "“You may be right{, you}. You may also have made an enemy of someone who was only a rival.”",
    "“I will do as you say{, you}. Do not mistake that for agreement.”",
    "“That will be talked about for a long time{, you}. Not all of it kindly.”",
    "“You have made your point{, you}. Everyone heard it, including the ones you did not mean it for.”",
    "“Bold{, you}. Let us hope it is also wise.”",
  ],
};

export const ARRIVAL_OPENERS = [
  "The way to {place} is short; what waits there is not.",
  "{Place} looks exactly as you remember it, which is somehow unsettling.",
  "By the time you reach {place}, word of your coming has arrived ahead of you.",
  "{Place} is busier than it should be at this hour, and conversations falter as you approach.",
  "{Place} is quiet, the kind of quiet that means everyone is listening.",
  "You reach {place} as the {watch} settles over it.",
  "Nobody stops you on the way to {place}, though more than one person notes where you are going.",
  "At {place}, the air itself seems to wait for you to decide something.",
];

export const PRESENCE = [
  "{Who} is there already, and makes no pretence of being surprised to see you.",
  "You are not the only visitor: {who} is there, and has seen you.",
  "Someone has left word that {who} wishes to see you before the day is out.",
  "{Who} passes you on the way out, with a greeting that is a shade too warm.",
  "You catch sight of {who} at the far end, deep in conversation with someone whose face you cannot see.",
  "Someone murmurs that {who} was asking after you not an hour ago.",
  "For once, nobody is waiting for you. It does not last: {who} finds you soon enough.",
];

export const DISCOVERY_OPENERS = [
  "You look closer, and the world obliges.",
  "Looking closer pays off.",
  "A detail you had overlooked comes into focus.",
  "It takes patience, but patience is cheaper than mistakes.",
  "You ask the right questions of the right people, and listen to what is not said.",
  "Nobody notices you noticing, which is the point.",
  "The answer is not hidden, only unregarded.",
  "It is easy to miss, if you are not looking for it.",
];

export const REST_OPENERS = [
  "You let the {watch} pass in rest.",
  "For a while, you allow yourself to stop.",
  "Sleep, or something like it, comes easier than you expected.",
  "The hours slip by without demanding anything of you, which is rare enough.",
  "You rest, and the world, for once, lets you.",
  "You close your eyes on the day's problems; they are still there when you open them.",
  "Rest comes in pieces, between thoughts that will not settle.",
  "You sit with your thoughts until they stop arguing.",
];

export const REST_CLOSERS = [
  "When you take up the thread again, things have moved a little without you.",
  "By {nextWatch}, someone has been busy in your absence.",
  "When you rise, a message is waiting, folded small.",
  "It is {nextWatch} before anyone dares disturb you.",
  "You come back to it clearer-headed, with one idea you did not have before.",
  "Others have spent the same hours less gently than you.",
  "The quiet ends, as quiet always does here, with footsteps.",
];

export const WAIT_OPENERS = [
  "The waiting tells you more than questions would.",
  "You let the moment pass without filling it.",
  "You keep your own counsel and your eyes open.",
  "You do nothing, visibly, which here is a move of its own.",
  "Patience, you find, makes other people talk.",
  "You hold still while everyone around you tries not to.",
  "You let someone else be the first to blink.",
  "You give nothing away, and watch who tries to take it anyway.",
];

export const OUTCOMES = [
  "It works, mostly. What you wanted is within reach now, but not everyone who saw it happen is pleased.",
  "For a moment nothing happens. Then word begins to travel, faster than you would like and not quite in the shape you intended.",
  "The first step goes smoothly. The second, you suspect, will cost more.",
  "Not everyone approves. But nobody, for once, can pretend you did not act.",
  "The effect is immediate, and it is not the one anyone expected, including, perhaps, you.",
  "You have bought yourself a little time and a great deal of attention. Both will need spending wisely.",
  "It is a small move, but small moves are how this world keeps score, and someone has already noted it down.",
  "Something shifts. You can feel it in the way people look at you afterwards: a half-second longer, a half-step back.",
];

export const REACTIONS = [
  "{Who} watches it all without a word, and the silence says more than an answer would.",
  "{Who} is the first to respond: a pause a heartbeat too long, then a careful smile.",
  "“I wondered when you would try that{, you},” {who} says at last, not unkindly.",
  "“Then we understand each other. For now,” says {who}, eyes flicking to {other}.",
  "“Everyone will have heard about this by tomorrow{, you},” {who} observes, and does not sound sorry about it.",
  "{Who} glances toward {other} before answering, the way people do when a debt is being counted.",
  "“That is not what I expected from you{, you},” {who} admits. It is hard to tell whether that is praise.",
];

export const SPEECH_LINES = [
  "“If that is your wish{, you}, it will be done.”",
  "“I hear you{, you}. So, I suspect, does everyone else.”",
  "“Those are strong words{, you}. People will repeat them.”",
  "“I will remember that you said so{, you}.”",
  "“You may come to regret saying that aloud{, you}. Or you may not.”",
  "“Understood{, you}. I only hope the others understood it the same way.”",
  "“Said like that, it is hard to argue with{, you}.”",
];

export const SPEECH_REACTIONS = [
  "{Who} is the first to respond.",
  "The words land harder than you might expect, and {who} feels them first.",
  "For a moment no one answers. Then {who} does.",
  "{Who} repeats the last of it quietly, as if testing its weight.",
  "Heads turn; {who}'s is the first.",
  "{Who} lets the silence stretch before answering.",
  "Nobody laughs, though {who} looks as though it took some effort.",
  "{Who} does not answer at once, which is an answer of its own.",
];

export const NAME_OPENERS = [
  "“{Name},” {who} repeats, slowly, as if setting it somewhere safe.",
  "{Who} bows slightly at the name. “{Name}. I will remember it.”",
  "“{Name}.” {Who} tries the name aloud, and it seems to fit the room.",
  "The name is barely spoken before {who} has taken note of it. “{Name}, then.”",
  "{Who} smiles at that. “{Name}. Good. People here will want to know it soon enough.”",
  "“So it is {name},” says {who}. “Names travel quickly here.”",
  "{Who} says nothing for a moment, then: “{Name}. It suits you.”",
  "“{Name},” {who} echoes. “Then that is what they will call you, when they speak of you.”",
];

export const NAME_CLOSERS = [
  "By the end of the day, the name is in a dozen mouths.",
  "Somewhere, someone writes it down.",
  "It is, you realise, the first thing you have given away here for free.",
  "You have the impression it will be spoken in rooms you have never entered.",
  "More than one listener files it away for later.",
  "It will be a name people reckon with, one way or another.",
  "Whatever comes next, it will come to you by that name.",
];

export const PRESSURE_LEADS = [
  "Meanwhile, the world does not wait.",
  "Beneath it all, an older problem keeps its own time.",
  "A reminder arrives before the day is out that other matters are pressing too.",
  "You also know this cannot be put off forever.",
  "Not everything can wait for you to be ready.",
  "Somewhere beyond this room, a problem is growing in the dark.",
  "Word comes, as it always does, at the least convenient moment.",
  "And there is still the matter nobody wants to raise.",
];

export const PRESSURE_CLOSERS = [
  "Someone will have to answer for it, and soon.",
  "The longer it waits, the more it will cost.",
  "Nobody has said your name in connection with it. Yet.",
  "Others are already deciding what to do about it, with or without you.",
  "It is the kind of problem that grows quietly, then all at once.",
  "There is still time. Not much.",
  "You can feel the weight of it settle on the next few days.",
];

export const AFTERMATH_SCENES = [
  "When you next pass through {place}, it is busier than it should be, and conversations falter as you approach.",
  "Later, {place} is unusually quiet, the kind of quiet that means everyone is listening.",
  "By the time you reach {place}, the story of what you did has arrived ahead of you, slightly improved in the telling.",
  "In {place}, someone has left a folded note where only you would find it. It is unsigned.",
  "The light has changed by the time you look up again; in {place} the {watch} is ending with deals no one will admit to.",
  "Word of it reaches {place} before the {watch} is out.",
  "Someone in {place} is already telling the story, and getting the important parts wrong.",
  "At {place}, a conversation stops when you come near and does not start again until you have gone.",
];

export const AFTERMATH_PEOPLE = [
  "{Who} is among those who notice.",
  "{Who} hears of it before you have finished.",
  "{Who}, for one, will not let it pass unremarked.",
  "It is {who} who asks the most questions about it.",
  "{Who} says nothing, which worries you more than anything said aloud.",
  "{Who} sends word asking to discuss it, at your convenience.",
  "{Who} will remember this, and so, you suspect, will you.",
];

export const OPENING_HOOKS = [
  "{Who} is already watching you, waiting to see what you will do first.",
  "Before you can settle in, {who} steps forward with a matter that will not wait.",
  "Somewhere close by, {who} is asking for a word with you, and the asking has the sound of a test.",
];

/** How a reply brings back what the player settled about someone they brought into the story: a lead, a colon, the line. */
export const CARRY_LEADS = [
  "Your orders stand:",
  "In {here}, as arranged:",
  "Nothing this {watch} changes it:",
  "As you left it:",
  "Whatever {someone} thinks of it:",
  "Settled, and still settled:",
  "By your word, this {watch}:",
  "Whatever else moves in {here}:",
];

export const NAME_INVITATION = "If you mean to be known here, now is the moment to give your name.";

// Choices, each told the way the player would type it (imperative, no Markdown).
export const TALK_CHOICES = [
  "Invite {person} to speak with you privately, and listen for what goes unsaid.",
  "Send a discreet message to {person} proposing an understanding.",
  "Offer {person} a favour now, to be repaid when you need it most.",
  "Ask {person} for advice, and watch closely what that advice would cost you.",
  "Keep {person} close for the next few days, and note who comes calling.",
  "Confront {person} directly about what you have just seen.",
  "Thank {person} in front of everyone, and see who resents it.",
];
export const ASK_CHOICES = ["Ask {person} about {topic}.", "Ask {person} for the truth about {topic}."];
export const ASK_TROUBLE_CHOICES = ["Ask {person} who stands to gain from {trouble}.", "Ask {person} what can still be done about {trouble}."];
export const PLACE_CHOICES = [
  "Go to {place} and see who is already there.",
  "Withdraw to {place} to think before you commit to anything.",
  "Make a visible appearance at {place}, so that everyone knows you are not hiding.",
  "Slip away to {place} before anyone thinks to stop you.",
];
export const LOOK_CHOICES = ["Look more closely at {place}, and at who comes and goes.", "Search {place} for anything that seems out of place."];
export const GROUP_CHOICES = [
  "Sound out {group}, quietly, about where they stand.",
  "Make a public gesture that {group} cannot ignore.",
  "Find out what {group} want from you.",
];
export const CHALLENGE_CHOICES = [
  "Deal with {challenge} now, before matters grow worse.",
  "Ask for a full account of {challenge} before deciding anything.",
  "Find someone else to carry the weight of {challenge}, and the blame if it fails.",
  "Spend what it takes to get ahead of {challenge}.",
];
export const STEADY_CHOICES = [
  "Press your advantage and follow through on what you just started.",
  "Wait, watch, and let someone else make the first move.",
  "Take a moment for yourself: rest, regroup, and see how things settle.",
  "Write down everything you have learned so far, and look for the pattern.",
];

export interface Frame {
  openers: readonly string[];
  closers: readonly string[];
}

/** Every pair of pools that frames a paragraph. */
export const FRAMES = {
  answer: { openers: ANSWER_OPENERS, closers: ANSWER_CLOSERS },
  unknown: { openers: UNKNOWN_OPENERS, closers: UNKNOWN_CLOSERS },
  nobody: { openers: NOBODY_OPENERS, closers: NOBODY_CLOSERS },
  recall: { openers: RECALL_OPENERS, closers: RECALL_CLOSERS },
  advice: { openers: ADVICE_OPENERS, closers: RECALL_CLOSERS },
  talkNeutral: { openers: TALK_OPENERS, closers: LINES.neutral },
  talkKind: { openers: TALK_OPENERS, closers: LINES.kind },
  talkHarsh: { openers: TALK_OPENERS, closers: LINES.harsh },
  arrival: { openers: ARRIVAL_OPENERS, closers: PRESENCE },
  discovery: { openers: DISCOVERY_OPENERS, closers: RECALL_CLOSERS },
  rest: { openers: REST_OPENERS, closers: REST_CLOSERS },
  wait: { openers: WAIT_OPENERS, closers: REACTIONS },
  waitAlone: { openers: WAIT_OPENERS, closers: OUTCOMES.slice(0, 7) },
  speech: { openers: SPEECH_REACTIONS, closers: SPEECH_LINES },
  speechAlone: { openers: SPEECH_REACTIONS, closers: OUTCOMES.slice(0, 7) },
  act: { openers: OUTCOMES, closers: REACTIONS },
  name: { openers: NAME_OPENERS, closers: NAME_CLOSERS },
  pressure: { openers: PRESSURE_LEADS, closers: PRESSURE_CLOSERS },
  aftermath: { openers: AFTERMATH_SCENES, closers: AFTERMATH_PEOPLE },
} as const satisfies Record<string, Frame>;
