{{/* The chart's name, at most 63 characters (a DNS label). */}}
{{- define "sgx-reversal.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's objects' name: release-chart, at most 63 characters. */}}
{{- define "sgx-reversal.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "sgx-reversal.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* What every pod of this release carries (the server's and the migration Job's). */}}
{{- define "sgx-reversal.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sgx-reversal.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "sgx-reversal.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{ include "sgx-reversal.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "sgx-reversal.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The Secret holding the database URL: the one named, or the chart's. */}}
{{- define "sgx-reversal.databaseSecret" -}}
{{- if .Values.database.existingSecret -}}
{{- .Values.database.existingSecret -}}
{{- else -}}
{{- include "sgx-reversal.fullname" . -}}
{{- end -}}
{{- end -}}

{{- define "sgx-reversal.jwtSecret" -}}
{{- if .Values.jwt.existingSecret -}}
{{- .Values.jwt.existingSecret -}}
{{- else -}}
{{- include "sgx-reversal.fullname" . -}}
{{- end -}}
{{- end -}}

{{- define "sgx-reversal.dataKeySecret" -}}
{{- if .Values.dataKey.existingSecret -}}
{{- .Values.dataKey.existingSecret -}}
{{- else -}}
{{- include "sgx-reversal.fullname" . -}}
{{- end -}}
{{- end -}}

{{- define "sgx-reversal.auditKeySecret" -}}
{{- if .Values.auditKey.existingSecret -}}
{{- .Values.auditKey.existingSecret -}}
{{- else -}}
{{- include "sgx-reversal.fullname" . -}}
{{- end -}}
{{- end -}}

{{/* Pod-level security: user 10001 (the image's), never root, the runtime's default seccomp profile. */}}
{{- define "sgx-reversal.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container-level security: read-only root file system, no privilege escalation, no capabilities. */}}
{{- define "sgx-reversal.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop:
    - ALL
{{- end -}}

{{/*
The secrets as files (DATABASE_URL_FILE, JWT_SECRET_FILE, DATA_KEY_FILE, AUDIT_KEY_FILE): a projected volume of
the Secret keys, mounted at /run/secrets/sgx-reversal.
*/}}
{{- define "sgx-reversal.secretsVolume" -}}
- name: secrets
  projected:
    defaultMode: 288 # 0440: the user and group (fsGroup 10001) may read
    sources:
      - secret:
          name: {{ include "sgx-reversal.databaseSecret" . }}
          items:
            - key: {{ .Values.database.existingSecretKey }}
              path: database-url
      {{- if or .Values.jwt.existingSecret .Values.jwt.secret }}
      - secret:
          name: {{ include "sgx-reversal.jwtSecret" . }}
          items:
            - key: {{ .Values.jwt.existingSecretKey }}
              path: jwt-secret
      {{- end }}
      - secret:
          name: {{ include "sgx-reversal.dataKeySecret" . }}
          items:
            - key: {{ .Values.dataKey.existingSecretKey }}
              path: data-key
      - secret:
          name: {{ include "sgx-reversal.auditKeySecret" . }}
          items:
            - key: {{ .Values.auditKey.existingSecretKey }}
              path: audit-key
{{- end -}}

{{- define "sgx-reversal.checkValues" -}}
{{- if and (not .Values.database.existingSecret) (not .Values.database.url) -}}
{{- fail "Set database.existingSecret (a Secret holding the PostgreSQL URL) or database.url" -}}
{{- end -}}
{{- if and .Values.database.owner.existingSecret (not .Values.database.owner.serverRole) -}}
{{- fail "Set database.owner.serverRole (the role the servers' database URL connects as) with database.owner.existingSecret" -}}
{{- end -}}
{{- if and .Values.database.owner.existingSecret (not .Values.migration.enabled) -}}
{{- fail "With database.owner (two roles) keep migration.enabled: the servers' role cannot migrate" -}}
{{- end -}}
{{- if and (not .Values.dataKey.existingSecret) (not .Values.dataKey.key) -}}
{{- fail "Set dataKey.existingSecret (a Secret holding DATA_KEY, made with openssl rand -base64 32) or dataKey.key" -}}
{{- end -}}
{{- if and (not .Values.auditKey.existingSecret) (not .Values.auditKey.key) -}}
{{- fail "Set auditKey.existingSecret (a Secret holding AUDIT_KEY, made with openssl rand -base64 32) or auditKey.key" -}}
{{- end -}}
{{- end -}}
