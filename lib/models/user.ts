export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof Role)[keyof typeof Role];

export type User = {
  id: number;
  realmId: number;
  /** The API email (also the delivery email: this server has no email visibility settings yet). */
  email: string;
  fullName: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  timezone: string;
  dateJoined: number;
  apiKey: string;
  presenceEnabled: boolean;
  enableDraftsSynchronization: boolean;
  /**
   * Typing-notification settings, stored only once changed from upstream's default (true);
   * read them through settingsOfUser.
   */
  sendPrivateTypingNotifications?: boolean;
  sendStreamTypingNotifications?: boolean;
  receivesTypingNotifications?: boolean;
};

export const isAdmin = (user: User): boolean => user.role <= Role.ADMINISTRATOR;
export const isOwner = (user: User): boolean => user.role <= Role.OWNER;
export const isModerator = (user: User): boolean => user.role <= Role.MODERATOR;
export const isGuest = (user: User): boolean => user.role === Role.GUEST;
